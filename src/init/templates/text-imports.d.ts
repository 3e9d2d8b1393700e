// The templates are imported as text (`with { type: "text" }`): Bun embeds them in the binary.
declare module "*.txt" {
  const text: string;
  export default text;
}
