-- EMQ.EXTEND as a server-side script (the benchmarks' scripted executor, issue 8). Same
-- keys, rows, transition and reply as the verb (shared spec EMQ §1, §3, §4); the time
-- comes from the server (TIME); no lease_epoch is written (the seed), so the only write
-- is the new deadline.
--
-- KEYS[1] emq:{q}:active   KEYS[2] emq:{q}:job:<id>
-- ARGV[1] id   ARGV[2] attempts (the lease's token)   ARGV[3] lease_ms
-- Reply: 1 extended; 0 the lease is not live (nothing written).
if #KEYS ~= 2 or #ARGV ~= 3 then return redis.error_reply('ERR EMQ wrong number of arguments') end

local id, token = ARGV[1], ARGV[2]
if #id < 1 or #id > 200 or string.find(id, '\0', 1, true) then
  return redis.error_reply('ERR EMQ bad job id')
end
-- 1..INT64_MAX, compared as the canonical decimal the row holds
if not (string.find(token, '^[1-9]%d*$') and (#token < 19 or (#token == 19 and token <= '9223372036854775807'))) then
  return redis.error_reply('ERR EMQ attempts must be an integer in 1..9223372036854775807')
end
local lease_ms = nil
if #ARGV[3] <= 19 and string.find(ARGV[3], '^[1-9]%d*$') then lease_ms = tonumber(ARGV[3]) end
if lease_ms == nil or lease_ms > 9007199254740991 then
  return redis.error_reply('ERR EMQ lease_ms must be an integer in 1..9007199254740991')
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if now > 9007199254740991 - lease_ms then return redis.error_reply('ERR EMQ lease out of range') end

local kind = redis.call('TYPE', KEYS[1])['ok']
if kind ~= 'none' and kind ~= 'zset' then
  return redis.error_reply('WRONGTYPE Operation against a key holding the wrong kind of value')
end

-- EMQ §3: live = in active with deadline >= now, row a hash, state active, attempts = token
local deadline = redis.call('ZSCORE', KEYS[1], id)
if not deadline or tonumber(deadline) < now then return 0 end
if redis.call('TYPE', KEYS[2])['ok'] ~= 'hash' then return 0 end
if redis.call('HGET', KEYS[2], 'state') ~= 'active' then return 0 end
if redis.call('HGET', KEYS[2], 'attempts') ~= token then return 0 end

redis.call('ZADD', KEYS[1], string.format('%d', now + lease_ms), id)
return 1
