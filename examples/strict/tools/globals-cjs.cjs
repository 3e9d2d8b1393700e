// CommonJS under strict: the VM context's globals are an explicit list (no Buffer there).
module.exports = { cjs_globals: () => ({ buffer: typeof Buffer, bun: typeof Bun }) };
