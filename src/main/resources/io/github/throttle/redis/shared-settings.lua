--[[
Shared settings: one hash every instance reads, holding the settings field by field, and
  '#version'        moved on by one with every write (HINCRBY), as every release of Throttle keeps it;
  '#log:<version>'  the field that write changed, for the last ARGV[3] writes, so that an instance holding
                    version V reads what changed after V, not every field.
A write by an earlier release moves '#version' on without a '#log:' field: a reader finds the gap and reads
every field. A hash made anew (the first write, or the first after the store lost the hash: a restart without
persistence, a failover to a replica that never had it) starts '#version' at the server's time in microseconds,
above any version an instance can hold from before, so that the gap makes every instance read every field once.
Only hash commands (HGET HSET HDEL HINCRBY HGETALL) on the one key, and TIME.

KEYS[1]  the hash
ARGV[1]  'write' or 'read'
ARGV[3]  how many writes the '#log:' fields cover

write:  ARGV[2] the field; ARGV[4] '1' to set it to ARGV[5], '0' to remove it
        reply {version}: the version this write made
read:   ARGV[2] the version held (0: none)
        reply {version, 'same'}                       nothing changed
              {version, 'changed', f1, v1, f2, v2...} the fields written after the version held (v nil: removed)
              {version, 'every', f1, v1, f2, v2...}   every field but the '#log:' ones (the version's included)
]]
local hash = KEYS[1]
local kept = tonumber(ARGV[3])
-- a version as a field name: every digit (Lua writes numbers above 10^14 with an exponent)
local function log(v)
  return '#log:' .. string.format('%.0f', v)
end

if ARGV[1] == 'write' then
  if not redis.call('HGET', hash, '#version') then
    local t = redis.call('TIME')
    redis.call('HSET', hash, '#version', string.format('%.0f', tonumber(t[1]) * 1000000 + tonumber(t[2])))
  end
  local version = redis.call('HINCRBY', hash, '#version', 1)
  if ARGV[4] == '1' then
    redis.call('HSET', hash, ARGV[2], ARGV[5])
  else
    redis.call('HDEL', hash, ARGV[2])
  end
  redis.call('HSET', hash, log(version), ARGV[2])
  redis.call('HDEL', hash, log(version - kept))
  return {version}
end

local version = tonumber(redis.call('HGET', hash, '#version') or '0')
local held = tonumber(ARGV[2])
if held == version then
  return {version, 'same'}
end

local function every()
  local fields = redis.call('HGETALL', hash)
  local reply = {version, 'every'}
  for i = 1, #fields, 2 do
    if string.sub(fields[i], 1, 5) ~= '#log:' then
      reply[#reply + 1] = fields[i]
      reply[#reply + 1] = fields[i + 1]
    end
  end
  return reply
end

if held <= 0 or held > version or version - held > kept then
  return every()
end
local seen = {}
local reply = {version, 'changed'}
for v = held + 1, version do
  local field = redis.call('HGET', hash, log(v))
  if not field then
    return every()
  end
  if not seen[field] then
    seen[field] = true
    reply[#reply + 1] = field
    reply[#reply + 1] = redis.call('HGET', hash, field)
  end
end
return reply
