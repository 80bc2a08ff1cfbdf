-- One request against a client's budget (rate_limits.py): a sliding window estimated from two
-- fixed windows, the previous one's count weighed by how much of it still lies in the window.
-- KEYS[1] the current window's counter, KEYS[2] the previous one's (one hash slot).
-- ARGV: limit, milliseconds into the current window, the window in milliseconds, and what to do:
-- "allow" (count the request if the budget has room), "check" (count nothing), "count" (count it
-- whatever the budget: a request let in by an earlier "check" that has now been served) or
-- "release" (give back one request "allow" counted in the window of KEYS[1]: its work failed).
-- Answer: 0 when there is room (counted unless "check"), else the milliseconds until one more
-- would be let in (nothing counted).
local limit = tonumber(ARGV[1])
local elapsed = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local mode = ARGV[4]
if mode == 'release' then
  local held = tonumber(redis.call('GET', KEYS[1]) or '0')
  if held > 1 then
    redis.call('DECR', KEYS[1])
  elseif held == 1 then
    redis.call('DEL', KEYS[1])  -- nothing counted: nothing stored
  end
  return 0
end
if mode == 'count' then
  redis.call('INCR', KEYS[1])
  redis.call('PEXPIRE', KEYS[1], 2 * window)
  return 0
end
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local previous = tonumber(redis.call('GET', KEYS[2]) or '0')
if previous * (window - elapsed) / window + current + 1 <= limit then
  if mode == 'allow' then
    redis.call('INCR', KEYS[1])
    redis.call('PEXPIRE', KEYS[1], 2 * window)
  end
  return 0
end
if current + 1 <= limit then
  -- room once enough of the previous window has slid out
  local at = window - (limit - current - 1) * window / previous
  return math.max(1, math.ceil(at - elapsed))
end
-- this window is full: in the next one this window's count is the previous one's
local at = window
if limit > 1 and current > 0 then
  at = window + math.max(0, window - (limit - 1) * window / current)
elseif limit <= 1 then
  at = 2 * window
end
return math.max(1, math.ceil(at - elapsed))
