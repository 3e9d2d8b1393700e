/**
 * The Lua scripts of the Redis idempotency store. Each runs atomically on the server, so a
 * claim's read-and-write and a completion's fence check-and-write cannot interleave with
 * another worker's. A record is a hash at one key (so the scripts work on a cluster too):
 *
 *   f  fingerprint id     d  "1" done, "0" running     t  the claim's fencing token
 *   u  live until (epoch ms, the workers' clock)        v  the encoded value (done only)
 *
 * The key also carries a Redis expiry (PEXPIRE) — the TTL once done; while running, the
 * lease plus RUNNING_RECORD_GRACE_MS (record-row.ts) — so the server frees dead records
 * itself; `u` is what the scripts compare, so a worker's clock (an injected one in tests)
 * decides liveness. A running record past its lease is not taken over blind: CLAIM answers
 * "lapsed" with its token, the worker checks whether that owner still runs on its machine
 * (claim-owner.ts: a handler blocking its thread stops the heartbeat, not the owner), and
 * only then claims again naming that token.
 * Times travel as decimal strings: epoch ms are exact in Lua's doubles.
 */

/**
 * KEYS[1] record · ARGV: now, fp, token, until, keepMs, lapsed (the token of a running claim
 * past its lease that may be taken over, or "") → {"claimed"} | {"done", v} | {"running", t}
 * | {"conflict", d} | {"lapsed", t, f}
 */
export const CLAIM = `
local r = redis.call('HMGET', KEYS[1], 'f', 'd', 't', 'u')
if r[1] and tonumber(r[4]) > tonumber(ARGV[1]) then
  if r[1] ~= ARGV[2] then return {'conflict', r[2]} end
  if r[2] == '1' then return {'done', redis.call('HGET', KEYS[1], 'v')} end
  return {'running', r[3]}
end
if r[1] and r[2] == '0' and r[3] ~= ARGV[6] then return {'lapsed', r[3], r[1]} end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'f', ARGV[2], 'd', '0', 't', ARGV[3], 'u', ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return {'claimed'}
`;

/** KEYS[1] record · ARGV: token, fp, until, value, ttlMs → 1 stored | 0 fenced (another claim holds the key) */
export const COMPLETE = `
local r = redis.call('HMGET', KEYS[1], 't', 'd')
if r[1] and (r[1] ~= ARGV[1] or r[2] == '1') then return 0 end
redis.call('HSET', KEYS[1], 'f', ARGV[2], 'd', '1', 't', ARGV[1], 'u', ARGV[3], 'v', ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
`;

/** KEYS[1] record · ARGV: token → 1 released | 0 not ours */
export const RELEASE = `
local r = redis.call('HMGET', KEYS[1], 't', 'd')
if r[1] == ARGV[1] and r[2] == '0' then redis.call('DEL', KEYS[1]) return 1 end
return 0
`;

/** KEYS[1] record · ARGV: token, now → 1 while that claim holds the key, 2 when it is past its lease, 0 gone */
export const HELD = `
local r = redis.call('HMGET', KEYS[1], 't', 'd', 'u')
if r[1] ~= ARGV[1] or r[2] ~= '0' then return 0 end
if tonumber(r[3]) > tonumber(ARGV[2]) then return 1 end
return 2
`;

/** KEYS[1] record · ARGV: token, now, until, keepMs → 1 renewed | 0 lost (not ours, done, or lease passed) */
export const RENEW = `
local r = redis.call('HMGET', KEYS[1], 't', 'd', 'u')
if r[1] ~= ARGV[1] or r[2] ~= '0' or tonumber(r[3]) <= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], 'u', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
`;
