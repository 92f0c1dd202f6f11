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

Fields of a window:
  <tag>     its header, 20 bytes packed little-endian (struct '<dI4I4I4'):
            n  newest sub-bucket holding weight (a double: exact up to 2^53; sub-bucket b covers [b*p, (b+1)*p))
            t  weight counted in the window
            c  weight of sub-bucket n
            d  n - h, where h is the oldest sub-bucket holding weight
  <tag><b%k> weight of an older sub-bucket b + 2^32 * (distance to the next sub-bucket holding weight)
Sub-buckets holding weight form a chain from h to n, so the work of a call is bounded by the sub-buckets
that leave the window, never by the time elapsed since the last call. While no sub-bucket leaves and no new
one starts, a call reads and writes only the headers: one HMGET and one HSET per key. Slots are reused
modulo k, so a window never holds more than k fields; an idle key expires when its last weight leaves its
longest window.

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
local HEAD = '<dI4I4I4'
local pack, unpackHead = struct.pack, struct.unpack
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
    local head = redis.call('HGET', key, tag)
    if head and s.w > 0 then
      local n, t, c, d = unpackHead(HEAD, head)
      local h = n - d
      -- h <= b <= n: b is still linked (a slot is reused only after its sub-bucket was trimmed past h)
      if t > 0 and h <= b and b <= n then
        local w = s.w
        if b == n then
          if w > c then w = c end
          redis.call('HSET', key, tag, pack(HEAD, n, t - w, c - w, d))
        else
          local field = tag .. (b % s.k)
          -- absent only if the key was reset and written again since: nothing of this call is left
          local v = tonumber(redis.call('HGET', key, field)) or 0
          local cb = v % SHIFT
          if w > cb then w = cb end
          if w == 0 then
            -- nothing to take back
          elseif b == h and cb == w then
            -- the oldest sub-bucket is now empty: the next one holding weight becomes the oldest
            redis.call('HDEL', key, field)
            redis.call('HSET', key, tag, pack(HEAD, n, t - w, c, d - (v - cb) / SHIFT))
          else
            redis.call('HSET', key, field, v - w, tag, pack(HEAD, n, t - w, c, d))
          end
        end
      end
    end
  end
  return {}
end

local now = tonumber(ARGV[1])
if not now then
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
local record = mode == '1' or mode == '2'
local slack = tonumber(ARGV[3])

-- One pass reads every window, decides, and prepares the reply and the writes as if the call were recorded
-- (the common case). A denied call rebuilds its reply from st: per window its state before this call,
-- t h n c b (b = the sub-bucket of this call; h n c false when nothing is counted).
-- Tables are created at their usual size: growing them costs more than the rest of the pass.
local floor = math.floor
local st = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }
local reply = { 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }
local r, x = 1, 0
-- per key: key, HSET arguments, their count, end of its newest weight before and after this call
local pending = { 0, 0, 0, 0, 0 }
local allowed = true
local a = 4
for i = 1, #KEYS do
  local key = KEYS[i]
  local m = tonumber(ARGV[a])
  a = a + 1
  local heads
  if m == 1 then
    heads = redis.call('HMGET', key, ARGV[a])
  elseif m == 2 then
    heads = redis.call('HMGET', key, ARGV[a], ARGV[a + 5])
  elseif m == 3 then
    heads = redis.call('HMGET', key, ARGV[a], ARGV[a + 5], ARGV[a + 10])
  else
    local fields = {}
    for j = 1, m do
      fields[j] = ARGV[a + (j - 1) * 5]
    end
    heads = redis.call('HMGET', key, unpack(fields))
  end
  local out, o, before, after = { 0, 0, 0, 0, 0, 0, 0, 0 }, 0, 0, 0
  for j = 1, m do
    local tag = ARGV[a]
    local limit, p, k = tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2]), tonumber(ARGV[a + 3])
    local w = 0
    if record then w = tonumber(ARGV[a + 4]) end
    a = a + 5
    local b = floor(now / p)
    local t, h, n, c = 0, false, false, false
    local head = heads[j]
    if head then
      local hn, ht, hc, hd = unpackHead(HEAD, head)
      if ht > 0 then
        -- the clock went back: keep counting in the newest sub-bucket rather than rewrite the past
        if b < hn then b = hn end
        local trim = b - k + 1
        if hn >= trim then
          local hh = hn - hd
          while hh < trim do
            local v = tonumber(redis.call('HGET', key, tag .. (hh % k)))
            local cv = v % SHIFT
            ht = ht - cv
            hh = hh + (v - cv) / SHIFT
          end
          t, h, n, c = ht, hh, hn, hc
          local ends = (n + k) * p
          if ends > before then before = ends end
        end
      end
    end
    st[x + 1], st[x + 2], st[x + 3], st[x + 4], st[x + 5] = t, h, n, c, b
    x = x + 5
    if t + w > limit then allowed = false end
    -- as if recorded
    local at = b * p
    if at < now then at = now end
    local c2 = w
    if t == 0 then
      h = b
    elseif b == n then
      c2 = c + w
    else
      out[o + 1] = tag .. (n % k)
      out[o + 2] = c + (b - n) * SHIFT
      o = o + 2
    end
    t = t + w
    out[o + 1] = tag
    out[o + 2] = pack(HEAD, b, t, c2, b - h)
    o = o + 2
    local ends = (b + k) * p
    if ends > after then after = ends end
    local remaining = limit - t
    if remaining < 0 then remaining = 0 end
    reply[r + 1] = remaining
    if t > 0 then reply[r + 2] = (h + k) * p - at else reply[r + 2] = 0 end
    reply[r + 3] = 0
    r = r + 3
  end
  local q = (i - 1) * 5
  pending[q + 1], pending[q + 2], pending[q + 3], pending[q + 4], pending[q + 5] = key, out, o, before, after
end

if allowed then
  if record then
    for q = 0, #KEYS * 5 - 1, 5 do
      local key, before, after = pending[q + 1], pending[q + 4], pending[q + 5]
      redis.call('HSET', key, unpack(pending[q + 2], 1, pending[q + 3]))
      -- a key's expiry follows the end of its newest weight and is extended only when that end moves out
      -- (other methods sharing this bucket may keep longer windows in the same key)
      if after > before then
        local ttl = after - now + slack
        if redis.call('PTTL', key) < ttl then
          redis.call('PEXPIRE', key, ttl)
        end
      end
    end
  end
else
  reply[1] = 0
  r, x, a = 1, 0, 4
  for i = 1, #KEYS do
    local key = KEYS[i]
    local m = tonumber(ARGV[a])
    a = a + 1
    for _ = 1, m do
      local tag = ARGV[a]
      local limit, p, k, w = tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2]), tonumber(ARGV[a + 3]), tonumber(ARGV[a + 4])
      a = a + 5
      local t, h, n, c, b = st[x + 1], st[x + 2], st[x + 3], st[x + 4], st[x + 5]
      x = x + 5
      local at = b * p
      if at < now then at = now end
      local remaining = limit - t
      if remaining < 0 then remaining = 0 end
      local wait, violated = 0, 0
      if t + w > limit then
        -- walk the chain from the oldest sub-bucket until enough weight has left the window
        violated = 1
        local need, freed, y = t + w - limit, 0, h
        while true do
          local cy, step
          if y == n then
            cy, step = c, 0
          else
            local v = tonumber(redis.call('HGET', key, tag .. (y % k)))
            cy = v % SHIFT
            step = (v - cy) / SHIFT
          end
          freed = freed + cy
          if freed >= need or step == 0 then
            wait = (y + k) * p - at
            break
          end
          y = y + step
        end
      elseif t > 0 then
        wait = (h + k) * p - at
      end
      reply[r + 1], reply[r + 2], reply[r + 3] = remaining, wait, violated
      r = r + 3
    end
  end
end
if mode == '2' then
  for y = 0, x - 1, 5 do
    r = r + 1
    reply[r] = st[y + 5]
  end
end
-- the reply ends at its first nil
reply[r + 1] = nil
return reply
