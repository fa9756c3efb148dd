-- EMQ.CLAIM as a server-side script: the scripted executor the benchmarks measure the
-- native verb against (issue 8). Same keys, rows, transition and reply as the verb
-- (shared spec EMQ §1, §3, §4); the time comes from the server (TIME); and, as the seed
-- says of scripts, it writes no lease_epoch.
--
-- KEYS[1] emq:{q}:pending   KEYS[2] emq:{q}:active   (rows: emq:{q}:job:<id>)
-- ARGV[1] lease_ms (1..2^53-1)   ARGV[2] count (1..1000)
-- Reply: [[id, attempts, payload] ...], lowest pending first; [] when none.
-- Like the verb: every refusal before the first write (read pass, then write pass).
if #KEYS ~= 2 or #ARGV ~= 2 then return redis.error_reply('ERR EMQ wrong number of arguments') end

local function integer(text)  -- the core's parse_int64 shape: no sign, no leading zero
  if text == '0' or (#text <= 19 and string.find(text, '^[1-9]%d*$')) then return tonumber(text) end
  return nil
end

local lease_ms = integer(ARGV[1])
if lease_ms == nil or lease_ms < 1 or lease_ms > 9007199254740991 then
  return redis.error_reply('ERR EMQ lease_ms must be an integer in 1..9007199254740991')
end
local count = integer(ARGV[2])
if count == nil or count < 1 or count > 1000 then
  return redis.error_reply('ERR EMQ count must be an integer in 1..1000')
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if now > 9007199254740991 - lease_ms then return redis.error_reply('ERR EMQ lease out of range') end
local deadline = string.format('%d', now + lease_ms)

for i = 1, 2 do
  local kind = redis.call('TYPE', KEYS[i])['ok']
  if kind ~= 'none' and kind ~= 'zset' then
    return redis.error_reply('WRONGTYPE Operation against a key holding the wrong kind of value')
  end
end

-- Read pass: walk pending lowest first until `count` claims or 1000 ghosts.
local prefix = string.sub(KEYS[1], 1, -8) .. 'job:'  -- "emq:{q}:pending" -> "emq:{q}:job:"
local judged, claims, ghosts, rank = {}, 0, 0, 0
local batch = count + 8
while claims < count and ghosts < 1000 do
  local ids = redis.call('ZRANGE', KEYS[1], rank, rank + batch - 1)
  if #ids == 0 then break end
  rank = rank + #ids
  for _, id in ipairs(ids) do
    local row = prefix .. id
    if redis.call('TYPE', row)['ok'] ~= 'hash' then
      judged[#judged + 1] = {id, row, false}
      ghosts = ghosts + 1
    else
      local attempts = 0
      local text = redis.call('HGET', row, 'attempts')
      if text then
        attempts = integer(text)
        if attempts == nil or text == '9223372036854775807' then
          return redis.error_reply('ERR EMQ corrupt job row')
        end
      end
      local payload = redis.call('HGET', row, 'payload') or ''
      judged[#judged + 1] = {id, row, true, attempts + 1, payload}
      claims = claims + 1
    end
    if claims == count or ghosts == 1000 then break end
  end
end

-- Write pass.
local reply = {}
for _, j in ipairs(judged) do
  redis.call('ZREM', KEYS[1], j[1])
  if j[3] then
    redis.call('HSET', j[2], 'state', 'active', 'attempts', string.format('%d', j[4]))
    redis.call('ZADD', KEYS[2], deadline, j[1])
    reply[#reply + 1] = {j[1], j[4], j[5]}
  end
end
return reply
