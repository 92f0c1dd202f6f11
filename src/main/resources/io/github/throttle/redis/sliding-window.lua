--[[ Throttle: decide one call against sliding windows, atomically, in one round trip.

KEYS     one HASH per (bucket, identity); each holds every window of that bucket.
ARGV[1]  now in milliseconds since the epoch; empty = read the server clock (TIME)
ARGV[2]  "1" = record the call when allowed; "0" = only report usage;
         "2" = as "1", and the reply ends with the sub-bucket each window recorded in (see Refund);
         "-1" = refund (see Refund)
ARGV[3]  milliseconds added to a key's expiry (0 in production)
then, for each key in KEYS order:
  m                          number of windows checked for that key
  m times: tag limit p k w   field prefix naming the window, allowed weight, sub-bucket length (ms),
                             sub-buckets per window k = ceil(duration / p), weight of this call

Fields of a window (tag + suffix):
  t      weight counted in the window
  h, n   oldest and newest sub-bucket holding weight (sub-bucket b covers [b*p, (b+1)*p))
  c      weight of sub-bucket n
  <b%k>  weight of an older sub-bucket b + 2^32 * (distance to the next sub-bucket holding weight)
Sub-buckets holding weight form a chain from h to n, so the work of a call is bounded by the sub-buckets
that leave the window, never by the time elapsed since the last call. Slots are reused modulo k, so a
window never holds more than k + 4 fields; an idle key expires when its last weight leaves its longest window.

Reply: { allowed (1|0), then per key and window: remaining, wait (ms), violated (1|0) }
  remaining  limit - counted weight (after recording), not below 0
  wait       violated: least wait after which this call would fit if nothing else were recorded;
             otherwise: wait until the oldest counted weight leaves the window (0 when nothing is counted)
A denied call and a report write nothing.

Refund (ARGV[2] = "-1"): undoes an allowed "2" call whose part on other keys was denied (Redis Cluster,
keys in several hash slots). ARGV as that call's, with ARGV[1] ignored, followed by one sub-bucket per
window in ARGV order: the numbers that call's reply ended with. Each window's weight is subtracted from
that sub-bucket and from the window's total, so counts are exactly as if the call had never been recorded;
a sub-bucket that has since left the window is not touched (its weight is gone already). An emptied oldest
sub-bucket is unlinked; an emptied later one stays in the chain with weight 0 (as after a call of weight 0),
which changes no count and no retry wait. Reply: empty. ]]

local SHIFT = 4294967296
local mode = ARGV[2]

if mode == '-1' then
  local a, undo = 4, {}
  for i = 1, #KEYS do
    local m = tonumber(ARGV[a])
    a = a + 1
    for _ = 1, m do
      undo[#undo + 1] = { key = KEYS[i], tag = ARGV[a], k = tonumber(ARGV[a + 3]), w = tonumber(ARGV[a + 4]) }
      a = a + 5
    end
  end
  for _, s in ipairs(undo) do
    local b = tonumber(ARGV[a])
    a = a + 1
    local key, tag = s.key, s.tag
    local meta = redis.call('HMGET', key, tag .. 't', tag .. 'h', tag .. 'n', tag .. 'c')
    local t = tonumber(meta[1])
    if t and t > 0 and s.w > 0 then
      local h, n = tonumber(meta[2]), tonumber(meta[3])
      -- h <= b <= n: b is still linked (a slot is reused only after its sub-bucket was trimmed past h)
      if h <= b and b <= n then
        local w = s.w
        if b == n then
          local c = tonumber(meta[4])
          if w > c then w = c end
          redis.call('HSET', key, tag .. 'c', c - w, tag .. 't', t - w)
        else
          local field = tag .. (b % s.k)
          -- absent only if the key was reset and written again since: nothing of this call is left
          local v = tonumber(redis.call('HGET', key, field)) or 0
          local c = v % SHIFT
          if w > c then w = c end
          if w == 0 then
            -- nothing to take back
          elseif b == h and c == w then
            -- the oldest sub-bucket is now empty: the next one holding weight becomes the oldest
            redis.call('HDEL', key, field)
            redis.call('HSET', key, tag .. 'h', h + (v - c) / SHIFT, tag .. 't', t - w)
          else
            redis.call('HSET', key, field, v - w, tag .. 't', t - w)
          end
        end
      end
    end
  end
  return {}
end

local now = tonumber(ARGV[1])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local record = mode == '1' or mode == '2'
local slack = tonumber(ARGV[3])

local windows = {}
local allowed = true
local a = 4
for i = 1, #KEYS do
  local key = KEYS[i]
  local m = tonumber(ARGV[a])
  a = a + 1
  local fields = {}
  for j = 0, m - 1 do
    local tag = ARGV[a + j * 5]
    fields[j * 4 + 1] = tag .. 't'
    fields[j * 4 + 2] = tag .. 'h'
    fields[j * 4 + 3] = tag .. 'n'
    fields[j * 4 + 4] = tag .. 'c'
  end
  local meta = redis.call('HMGET', key, unpack(fields))
  for j = 0, m - 1 do
    local tag = ARGV[a]
    local p = tonumber(ARGV[a + 2])
    local k = tonumber(ARGV[a + 3])
    -- every field named up front: Lua sizes the table once
    local s = { key = key, tag = tag, limit = tonumber(ARGV[a + 1]), p = p, k = k, w = 0, t = 0,
                h = false, n = false, c = false, b = 0, at = now, f = fields, fi = j * 4 }
    if record then s.w = tonumber(ARGV[a + 4]) end
    a = a + 5
    local b = math.floor(now / p)
    local at = now
    local t = tonumber(meta[j * 4 + 1])
    if t and t > 0 then
      local n = tonumber(meta[j * 4 + 3])
      if b < n then
        -- the clock went back: keep counting in the newest sub-bucket rather than rewrite the past
        b = n
        at = n * p
      end
      local trim = b - k + 1
      if n >= trim then
        local h = tonumber(meta[j * 4 + 2])
        while h < trim do
          local v = tonumber(redis.call('HGET', key, tag .. (h % k)))
          local c = v % SHIFT
          t = t - c
          h = h + (v - c) / SHIFT
        end
        s.t, s.h, s.n, s.c = t, h, n, tonumber(meta[j * 4 + 4])
      end
    end
    s.b, s.at = b, at
    if s.t + s.w > s.limit then allowed = false end
    windows[#windows + 1] = s
  end
end

local reply = { allowed and 1 or 0 }
if allowed and record then
  -- a key's expiry follows the end of its newest weight; it is extended only when that end moves out
  local writes, before, after = {}, {}, {}
  for _, s in ipairs(windows) do
    local key, tag, b = s.key, s.tag, s.b
    local out = writes[key]
    if not out then
      out = {}
      writes[key] = out
      before[key] = 0
      after[key] = 0
    end
    if s.t > 0 then
      local ends = (s.n + s.k) * s.p
      if ends > before[key] then before[key] = ends end
    end
    if s.t == 0 then
      s.h, s.n, s.c = b, b, s.w
    elseif b == s.n then
      s.c = s.c + s.w
    else
      out[#out + 1] = tag .. (s.n % s.k)
      out[#out + 1] = s.c + (b - s.n) * SHIFT
      s.n, s.c = b, s.w
    end
    s.t = s.t + s.w
    local f, fi = s.f, s.fi
    out[#out + 1] = f[fi + 1]
    out[#out + 1] = s.t
    out[#out + 1] = f[fi + 2]
    out[#out + 1] = s.h
    out[#out + 1] = f[fi + 3]
    out[#out + 1] = s.n
    out[#out + 1] = f[fi + 4]
    out[#out + 1] = s.c
    local ends = (s.n + s.k) * s.p
    if ends > after[key] then after[key] = ends end
  end
  for key, out in pairs(writes) do
    redis.call('HSET', key, unpack(out))
    if after[key] > before[key] then
      -- extend only: other methods sharing this bucket may keep longer windows in the same key
      local ttl = after[key] - now + slack
      if redis.call('PTTL', key) < ttl then
        redis.call('PEXPIRE', key, ttl)
      end
    end
  end
end

for _, s in ipairs(windows) do
  local remaining = s.limit - s.t
  if remaining < 0 then remaining = 0 end
  local wait, violated = 0, 0
  if not allowed and s.t + s.w > s.limit then
    -- walk the chain from the oldest sub-bucket until enough weight has left the window
    violated = 1
    local need, freed, x = s.t + s.w - s.limit, 0, s.h
    while true do
      local c, step
      if x == s.n then
        c, step = s.c, 0
      else
        local v = tonumber(redis.call('HGET', s.key, s.tag .. (x % s.k)))
        c = v % SHIFT
        step = (v - c) / SHIFT
      end
      freed = freed + c
      if freed >= need or step == 0 then
        wait = (x + s.k) * s.p - s.at
        break
      end
      x = x + step
    end
  elseif s.t > 0 then
    wait = (s.h + s.k) * s.p - s.at
  end
  reply[#reply + 1] = remaining
  reply[#reply + 1] = wait
  reply[#reply + 1] = violated
end
if mode == '2' then
  for _, s in ipairs(windows) do
    reply[#reply + 1] = s.b
  end
end
return reply
