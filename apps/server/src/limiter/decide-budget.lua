-- One shared-budget decision, atomically: check all four buckets, debit all or none.
-- Mirrors decideBudgetAtMicros in packages/core/src/budget/gcra.ts step for step. Every
-- number is a whole microsecond count below 2^53, so Lua's doubles give the same results.
-- KEYS[1]: the identity's hash (fields rm, rh, cm, ch: the TATs).
-- ARGV: cost, debit (1|0), requests/min, requests/h, complexity/min, complexity/h, [now µs].
-- Returns {allowed (1|0), now µs, the four TATs before the decision}.
local cost = tonumber(ARGV[1])
local debit = ARGV[2] == '1'
local now = tonumber(ARGV[7])
if not now then
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000000 + tonumber(time[2])
end

local caps = { tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]) }
local periods = { 60000000, 3600000000, 60000000, 3600000000 }
local costs = { 1, 1, cost, cost }
local stored = redis.call('HMGET', KEYS[1], 'rm', 'rh', 'cm', 'ch')

local before = {}
local after = {}
local wait = nil
for i = 1, 4 do
  local tat = tonumber(stored[i]) or 0
  local interval = math.ceil(periods[i] / caps[i])
  local base = tat
  if now > base then base = now end
  local charge = costs[i]
  if charge > caps[i] then charge = caps[i] end
  before[i] = tat
  after[i] = base + charge * interval
  local w = after[i] - caps[i] * interval - now
  if wait == nil or w > wait then wait = w end
end

local allowed = wait <= 0
if allowed and debit then
  redis.call('HSET', KEYS[1],
    'rm', string.format('%.0f', after[1]), 'rh', string.format('%.0f', after[2]),
    'cm', string.format('%.0f', after[3]), 'ch', string.format('%.0f', after[4]))
  -- Forget the identity when every bucket is full again (at most about the hour period).
  local full = math.max(after[1], after[2], after[3], after[4])
  redis.call('PEXPIRE', KEYS[1], string.format('%.0f', math.ceil((full - now) / 1000)))
end

return { allowed and 1 or 0, now, before[1], before[2], before[3], before[4] }
