-- Conditional append of one batch to a deal's stream (docs/design.md, section 3: the event store).
-- KEYS[1] stream  <prefix>:{deal}:events
-- KEYS[2] hash    <prefix>:{deal}:cmds   fields: v (version), h (SHA-256 of the head record),
--                                        c:<command id> -> "first:last"
-- ARGV[1] expected version   ARGV[2] command id ('' for none)
-- ARGV[3] the head hash the caller chained the batch onto (64 zeros at version 0)
-- ARGV[4] the SHA-256 of the batch's last record (the new head)
-- ARGV[5..] the encoded records, versions expected+1 .. expected+n
-- Every check runs before the first write, and nothing after it can fail on a well-formed call:
-- Redis never rolls back a half-run script.
-- After the writes the new version is published on the channel named like the stream (KEYS[1]):
-- a doorbell for the service processes' stream readers, which then read the stream itself.
-- Returns last (an integer: appended first..last, first = expected + 1) | {1, first, last} command id seen before |
--         {2, actual_version, actual_head_hash} conflict | {3, message} bad call.
local expected = tonumber(ARGV[1])
if expected == nil or expected < 0 or expected ~= math.floor(expected) then
  return {3, 'expected version is not a whole number'}
end
local n = #ARGV - 4
if n < 1 then
  return {3, 'empty batch'}
end
local command_field = 'v'
if ARGV[2] ~= '' then command_field = 'c:' .. ARGV[2] end
local state = redis.call('HMGET', KEYS[2], 'v', 'h', command_field)
if ARGV[2] ~= '' and state[3] then
  local colon = string.find(state[3], ':', 1, true)
  return {1, tonumber(string.sub(state[3], 1, colon - 1)), tonumber(string.sub(state[3], colon + 1))}
end
local current = tonumber(state[1] or '0')
local head = state[2] or string.rep('0', 64)
if current ~= expected or head ~= ARGV[3] then
  return {2, current, head}
end
for i = 1, n do
  redis.call('XADD', KEYS[1], '0-' .. (current + i), 'e', ARGV[4 + i])
end
if ARGV[2] ~= '' then
  redis.call('HSET', KEYS[2], 'v', current + n, 'h', ARGV[4], command_field, (current + 1) .. ':' .. (current + n))
else
  redis.call('HSET', KEYS[2], 'v', current + n, 'h', ARGV[4])
end
redis.call('PUBLISH', KEYS[1], current + n)
return current + n
