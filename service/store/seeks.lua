-- Quick play's seeks of one game, decided atomically (service.store.seeks).
-- KEYS[1]: the waiting seeks, a sorted set scored by rating; KEYS[2]: every seek, a hash of
-- id -> JSON. Both keys share the hash tag {seeks:<game>}: one slot on Redis Cluster.
-- ARGV[1]: the operation; ARGV[2]: now in ms (the service's clock, passed as data).
local queue, seeks = KEYS[1], KEYS[2]
local op, now = ARGV[1], tonumber(ARGV[2])

local function load(id)
  local raw = redis.call('HGET', seeks, id)
  if not raw then return nil end
  return cjson.decode(raw)
end

local function save(id, s)
  redis.call('HSET', seeks, id, cjson.encode(s))
end

if op == 'add' then
  -- ARGV: id, account, name, rating, bots_after_ms (-1: none), stale_ms; the seek's id
  -- one waiting seek per account and game: a second ask answers the first one's id
  local held = redis.call('HGET', seeks, 'acct:' .. ARGV[4])
  if held then
    local h = load(held)
    if h and h.s == 'waiting' and now - h.p <= tonumber(ARGV[8]) then return held end
  end
  local id = ARGV[3]
  local s = {a = ARGV[4], n = ARGV[5], r = tonumber(ARGV[6]), t = now, b = tonumber(ARGV[7]), p = now, s = 'waiting'}
  save(id, s)
  redis.call('HSET', seeks, 'acct:' .. ARGV[4], id)
  redis.call('ZADD', queue, s.r, id)
  return id
elseif op == 'poll' then
  -- ARGV: id, account; the seek as JSON (its poll time moved on), or nil (none of this account's)
  local s = load(ARGV[3])
  if not s or (ARGV[4] ~= '' and s.a ~= ARGV[4]) then return nil end
  s.p = now
  save(ARGV[3], s)
  return cjson.encode(s)
elseif op == 'drop' then
  -- ARGV: id, account: the seek leaves the queue and is forgotten (its own account only)
  local s = load(ARGV[3])
  if not s or s.a ~= ARGV[4] then return 0 end
  redis.call('ZREM', queue, ARGV[3])
  redis.call('HDEL', seeks, ARGV[3])
  if redis.call('HGET', seeks, 'acct:' .. s.a) == ARGV[3] then redis.call('HDEL', seeks, 'acct:' .. s.a) end
  return 1
elseif op == 'match' then
  -- ARGV: deal_id, seats, window base, widening per second, stale_ms
  -- one table at most: {deal_id, bots, id1, id2, ...} in seat order, or nil
  local deal_id, seats = ARGV[3], tonumber(ARGV[4])
  local base, widen = tonumber(ARGV[5]), tonumber(ARGV[6])
  local stale = tonumber(ARGV[7])
  local ids = redis.call('ZRANGE', queue, 0, -1)
  local waiting = {}
  for _, id in ipairs(ids) do
    local s = load(id)
    if not s or now - s.p > stale then  -- its person stopped asking: the seek ends
      redis.call('ZREM', queue, id)
      redis.call('HDEL', seeks, id)
      if s then redis.call('HDEL', seeks, 'acct:' .. s.a) end
    else
      s.id = id
      s.w = base + widen * math.max(0, now - s.t) / 1000
      waiting[#waiting + 1] = s
    end
  end
  local group = nil
  -- people only: the first run of `seats` neighbours by rating each within the others' windows
  for i = 1, #waiting - seats + 1 do
    local spread = waiting[i + seats - 1].r - waiting[i].r
    local fits = true
    for k = i, i + seats - 1 do
      if spread > waiting[k].w then fits = false break end
    end
    if fits then
      group = {}
      for k = i, i + seats - 1 do group[#group + 1] = waiting[k] end
      break
    end
  end
  local bots = 0
  if not group then
    -- bots fill the seats of the longest-waiting seek whose bots_after has passed, beside the
    -- nearest seekers within both windows
    local oldest = nil
    for _, s in ipairs(waiting) do
      if s.b >= 0 and now - s.t >= s.b and (not oldest or s.t < oldest.t) then oldest = s end
    end
    if oldest then
      local near = {}
      for _, s in ipairs(waiting) do
        if s.id ~= oldest.id and math.abs(s.r - oldest.r) <= math.min(s.w, oldest.w) then
          near[#near + 1] = s
        end
      end
      table.sort(near, function(x, y) return math.abs(x.r - oldest.r) < math.abs(y.r - oldest.r) end)
      group = {oldest}
      for k = 1, math.min(#near, seats - 1) do group[#group + 1] = near[k] end
      bots = seats - #group
    end
  end
  if not group then return nil end
  local out = {deal_id, bots}
  local plan = {bots = bots, ids = {}, m = now, p = now}
  for seat, s in ipairs(group) do
    redis.call('ZREM', queue, s.id)
    local id = s.id
    s.id = nil
    s.w = nil
    s.s = 'seated'
    s.d = deal_id
    s.seat = seat - 1
    s.m = now
    save(id, s)
    if redis.call('HGET', seeks, 'acct:' .. s.a) == id then redis.call('HDEL', seeks, 'acct:' .. s.a) end
    out[#out + 1] = id
    plan.ids[#plan.ids + 1] = id
  end
  -- the table's plan: any process makes the deal from it if the one that matched did not
  redis.call('HSET', seeks, 'table:' .. deal_id, cjson.encode(plan))
  return out
elseif op == 'plan' then
  -- ARGV: deal_id: the table's plan as JSON, or nil
  return redis.call('HGET', seeks, 'table:' .. ARGV[3])
elseif op == 'sweep' then
  -- ARGV: forget_ms: seated seeks older than this and stale waiting ones are forgotten
  local forget = tonumber(ARGV[3])
  local all = redis.call('HGETALL', seeks)
  local gone = 0
  for k = 1, #all, 2 do
    local s = string.sub(all[k], 1, 5) ~= 'acct:' and cjson.decode(all[k + 1]) or nil  -- a seek or a plan
    if s and now - s.p > forget then
      redis.call('HDEL', seeks, all[k])
      redis.call('ZREM', queue, all[k])
      gone = gone + 1
    end
  end
  return gone
end
return redis.error_reply('unknown seek operation')
