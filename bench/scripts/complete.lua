-- EMQ.COMPLETE as a server-side script (the benchmarks' scripted executor, issue 8). Same
-- keys, rows, transition and reply as the verb (shared spec EMQ §1, §3, §4), with the
-- time from the server (TIME). The row keeps whatever lease_epoch it had (none, when a
-- script claimed it).
--
-- KEYS[1] emq:{q}:active   KEYS[2] emq:{q}:done   KEYS[3] emq:{q}:job:<id>
-- ARGV[1] id   ARGV[2] attempts (the lease's token)   [ARGV[3] result]
-- Reply: 1 done; 0 the lease is not live (nothing written).
if #KEYS ~= 3 or #ARGV < 2 or #ARGV > 3 then
  return redis.error_reply('ERR EMQ wrong number of arguments')
end

local id, token = ARGV[1], ARGV[2]
if #id < 1 or #id > 200 or string.find(id, '\0', 1, true) then
  return redis.error_reply('ERR EMQ bad job id')
end
if not (string.find(token, '^[1-9]%d*$') and (#token < 19 or (#token == 19 and token <= '9223372036854775807'))) then
  return redis.error_reply('ERR EMQ attempts must be an integer in 1..9223372036854775807')
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

for i = 1, 2 do
  local kind = redis.call('TYPE', KEYS[i])['ok']
  if kind ~= 'none' and kind ~= 'zset' then
    return redis.error_reply('WRONGTYPE Operation against a key holding the wrong kind of value')
  end
end

-- EMQ §3: live = in active with deadline >= now, row a hash, state active, attempts = token
local deadline = redis.call('ZSCORE', KEYS[1], id)
if not deadline or tonumber(deadline) < now then return 0 end
if redis.call('TYPE', KEYS[3])['ok'] ~= 'hash' then return 0 end
if redis.call('HGET', KEYS[3], 'state') ~= 'active' then return 0 end
if redis.call('HGET', KEYS[3], 'attempts') ~= token then return 0 end

redis.call('ZREM', KEYS[1], id)
redis.call('ZADD', KEYS[2], string.format('%d', now), id)
if ARGV[3] then
  redis.call('HSET', KEYS[3], 'state', 'done', 'result', ARGV[3])
else
  redis.call('HSET', KEYS[3], 'state', 'done')
end
return 1
