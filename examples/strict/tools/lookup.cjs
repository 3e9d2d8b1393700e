// A builtin name computed at run time: strict cannot see it at load, so the controlled
// `require` judges it when it runs — `crypto` is allowed, anything else is refused.
module.exports = {
  load_builtin: (input) => ({ loaded: typeof require(input.name) }),
};
