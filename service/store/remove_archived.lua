-- Remove an archived deal from Redis, only if it is still exactly what was archived.
-- KEYS[1] stream <prefix>:{deal}:events   KEYS[2] meta <prefix>:{deal}:meta
-- KEYS[3] cmds   <prefix>:{deal}:cmds     KEYS[4] lease <prefix>:{deal}:archiving
-- KEYS[5] chat   <prefix>:{deal}:chat     KEYS[6] its counter <prefix>:{deal}:chat:n
-- KEYS[7] spectators' room <prefix>:{deal}:chat:watch   KEYS[8] its counter …:chat:watch:n
-- KEYS[9..] the indexes that list the deal (sorted sets: all deals, public deals, finished deals)
-- ARGV[1] the archiver's lease token   ARGV[2] deal id
-- ARGV[3] the head hash archived       ARGV[4] the number of records archived
-- ARGV[5] the number of chat messages said when the chat was archived
-- ARGV[6] the number of messages said in the spectators' room when it was archived
-- ARGV[7..] the meta hash as archived, field and value pairs
-- Every check runs before the first write. Returns 0 removed | 1 the lease is not this
-- archiver's | 2 the log is not the one archived (head hash, version or length) | 3 the meta
-- hash changed since it was copied (a field added, changed or dropped) | 4 a chat message was
-- said (in either room) since the chat was copied.
if redis.call('GET', KEYS[4]) ~= ARGV[1] then
  return 1
end
local count = tonumber(ARGV[4])
local head = redis.call('HMGET', KEYS[3], 'v', 'h')
if head[2] ~= ARGV[3] or tonumber(head[1] or '-1') ~= count or redis.call('XLEN', KEYS[1]) ~= count then
  return 2
end
if tonumber(redis.call('GET', KEYS[6]) or '0') ~= tonumber(ARGV[5]) then
  return 4
end
if tonumber(redis.call('GET', KEYS[8]) or '0') ~= tonumber(ARGV[6]) then
  return 4
end
local pairs_given = (#ARGV - 6) / 2
if redis.call('HLEN', KEYS[2]) ~= pairs_given then
  return 3
end
for i = 7, #ARGV, 2 do
  if redis.call('HGET', KEYS[2], ARGV[i]) ~= ARGV[i + 1] then
    return 3
  end
end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8])
for i = 9, #KEYS do
  redis.call('ZREM', KEYS[i], ARGV[2])
end
return 0
