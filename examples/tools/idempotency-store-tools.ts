// Tool handlers for the idempotency store examples (060–065), loaded through the configs
// in examples/stores/. `charge_card` counts its executions in this process, so a program
// can show that a replayed call did not run the handler again.
let charges = 0;

export const lumaTools = {
  // A fresh request id per call: real clients send one with each request they may retry.
  new_request_id: () => ({ id: crypto.randomUUID() }),

  charge_card: (input: { request_id: string; amount: number }) => {
    charges += 1;
    return { charge_id: `ch_${input.request_id.slice(0, 8)}`, amount: input.amount, executions: charges };
  },

  // The worker pool example (064): the receipt depends only on the job, so a job that ran
  // in another worker (replayed from the store) prints the same line as one that ran here.
  send_invoice: (input: { job_id: string; customer: string }) => ({ receipt: `sent invoice ${input.job_id} to ${input.customer}` }),
};
