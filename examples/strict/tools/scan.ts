// The seed's module, unchanged. It names nothing the strict lint looks for and loads no
// builtin, so it passes every check — and it still runs `id -u` through `Bun.spawnSync`,
// which the VM context has. Strict is a contract check, not isolation.
export const scan = () => ({ count: Bun.spawnSync(["id", "-u"]).stdout.toString().trim().length });
