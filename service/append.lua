-- Conditional append of one batch to a deal's stream (DESIGN.md section 3).
-- KEYS[1] stream ds:{deal}:events   KEYS[2] command ids ds:{deal}:cmds
-- ARGV[1] expected version   ARGV[2] command id ('' for none)
-- ARGV[3] sha1 of the record the caller believes is at the expected version ('' at version 0)
-- ARGV[4..] the encoded records, versions expected+1 .. expected+n
-- Every check runs before the first write: Redis never rolls back a half-run script.
-- Returns {0, first, last} appended | {1, first, last} command id seen before |
--         {2, actual_version, last_record or ''} conflict | {3, message} bad call.
local expected = tonumber(ARGV[1])
if expected == nil or expected < 0 or expected ~= math.floor(expected) then
  return {3, 'expected version is not a whole number'}
end
local n = #ARGV - 3
if n < 1 then
  return {3, 'empty batch'}
end
local command_id = ARGV[2]
if command_id ~= '' then
  local seen = redis.call('HGET', KEYS[2], command_id)
  if seen then
    local dash = string.find(seen, ':', 1, true)
    return {1, tonumber(string.sub(seen, 1, dash - 1)), tonumber(string.sub(seen, dash + 1))}
  end
end
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local current = 0
local last_record = ''
if #last > 0 then
  current = tonumber(string.match(last[1][1], '^0%-(%d+)$'))
  local fields = last[1][2]
  for i = 1, #fields, 2 do
    if fields[i] == 'e' then last_record = fields[i + 1] end
  end
end
if current ~= expected then
  return {2, current, last_record}
end
if current > 0 and redis.sha1hex(last_record) ~= ARGV[3] then
  return {2, current, last_record}
end
for i = 1, n do
  redis.call('XADD', KEYS[1], '0-' .. (current + i), 'e', ARGV[3 + i])
end
if command_id ~= '' then
  redis.call('HSET', KEYS[2], command_id, (current + 1) .. ':' .. (current + n))
end
return {0, current + 1, current + n}
