--[[ Throttle: decide one call against sliding windows, atomically, in one round trip.

KEYS     one HASH per (bucket, identity); each holds every window of that bucket. A run decides a batch of
         calls one after the other, in ARGV order, each seeing what the ones before it recorded: as if each
         were a script run of its own. KEYS holds every key of the batch once.
Numbers in ARGV are written in base 36 (digits 0-9a-z): Redis reads them with strtoul, at half the cost of
a decimal number (strtod).
ARGV[1]  milliseconds added to a key's expiry (0 in production)
ARGV[2]  number of calls in the batch
then, for each call:
  now                        milliseconds since the epoch; empty = the server clock (TIME, read once a run)
  mode                       "1" = record the call when allowed; "0" = only report usage;
                             "2" = as "1", and the call's reply ends with the sub-bucket each window recorded
                             in (see Refund); "-1" = refund: take a recorded call's weight back (see Refund);
                             "3" = lease (see Leases)
  wait                       the longest the call may wait (ms; "0" = not at all): a recorded call denied now
                             is reserved at the earliest time it fits within that wait (see Reservations)
  lease                      the id of the lease each seat this call takes holds, chosen by the caller so that
                             it can release a seat whose reply it never got ("" = the script chooses; see Seats)
  n                          number of keys of this call
  n times:
    i                        the key: KEYS[i]
    m                        number of windows checked for that key
    m times: tag limit p k w field prefix naming the window (it ends in ':' or ';' and holds neither
                             before), allowed weight, sub-bucket length (ms), sub-buckets per window
                             k = ceil(duration / p), weight of this call
                             k = 0: the seats of an in-flight limit (calls in progress), p its lease
                             (ms); its tag ends in '@' and holds no ':', ';' or '/' (see Seats)
  (refund only) one sub-bucket per window of the call, in order (a lease id for seats); a refund's "lease",
                             when given, is the generation of a lease's give-back (see Leases)
  (lease only) the longest a lease lives (ms)

Fields of a window:
  <tag>      its header, 20 bytes packed little-endian (struct '<dI4I4I4'), followed by '+' while the window
             holds reservations:
             n  newest sub-bucket holding weight (a double: exact up to 2^53; sub-bucket b covers [b*p, (b+1)*p))
             t  weight counted in the window
             c  weight of sub-bucket n
             d  n - h, where h is the oldest sub-bucket holding weight
  Older sub-buckets h <= b < n, when k <= 64 (an hour by minutes, a minute by seconds, ...):
  <tag>r<i>  a ring of k little-endian weights, b in slot b % k, 2 bytes a slot while every weight fits
             (else 4), cut in pieces of 64 bytes (i = 0, 1, ...) so that Redis keeps a small hash in its
             compact encoding; written when a new sub-bucket starts
  otherwise (long windows of fine sub-buckets, up to a million):
  <tag><b%k> for each b holding weight (b % k in 3 bytes little-endian): its weight and the distance to
             the next sub-bucket holding weight, 8 bytes (struct '<I4I4'). These form a chain from h to n,
             so the work of a call is bounded by the sub-buckets that leave the window, never by the time
             elapsed since the last call.
Fields of a key leased (see Leases): "gen" and "until"; no window's tag is either.
Seats (k = 0), the field <tag> alone: the last lease id given (a double, '<d'), then one lease per call
  holding a seat, 20 bytes each ('<ddI4'): its end (ms), its id, its weight. A lease counts while its end is
  after now. An allowed call of weight w > 0 takes a seat: the leases that ended are dropped, and a lease
  ending at now + p is added with the call's lease id; without one, with id max(last + 1, now * 1000) (ids only
  grow, even after the field was dropped, so a late release never frees another call's seat). The last id
  given becomes the larger of the two. A caller's lease id is random in [2^52, 2^53 - 2^32) (exact as a
  double), so a late or blind release frees its own seat only. A field never holds more leases than the
  limit. Ending the call refunds the seat (see Refund).
Reservations: weight recorded ahead of now, for calls that wait. The field <tag>+ holds the time of the latest
  reservation (a double, '<d'), then one entry per reserved sub-bucket, oldest first, 12 bytes each ('<dI4'):
  the sub-bucket and its weight. An entry counts in every window that holds its sub-bucket, before and after
  its time comes, and is dropped once it left every window a call can be recorded in. While the header ends
  in '+', a call recorded in sub-bucket b (b as above, or a reserved one) is allowed iff every window holding
  b - those ending at b and at each later sub-bucket holding reserved weight, up to b + k - 1 - holds at most
  limit - w (its remaining is limit minus the fullest of them). A call that may wait and is denied now is
  reserved at the earliest time t0 (not before the window's latest reservation, so reserved times never
  decrease, and at most its wait from now) at which it is allowed in every window of the call, in sub-bucket
  floor(t0 / p) of each window (in the window's own sub-bucket b when that is not later, or when the call
  weighs 0 there: such a window keeps no reservation of it); t0 is the time now,
  the latest reservation of a window, or the end of a window holding a sub-bucket with weight. No reservation
  is taken for a call that holds seats.
While no sub-bucket leaves and no new one starts, a call reads and writes only the headers: one HMGET and one
HSET per key. A window never holds more than k + 1 fields; an idle key expires when its last weight leaves
its longest window.

Reply: one reply per call of the batch, in order. A call's reply:
  { allowed (0 = denied; 1 = allowed now; 1 + d = reserved: allowed d ms from now), then per key and window:
    remaining, wait (ms) }
  remaining  limit - counted weight (after recording), not below 0
  wait       negative when this window is violated: minus the least wait (>= 1) after which this call would
             fit if nothing else were recorded; otherwise the wait until the oldest counted weight leaves the
             window (0 when nothing is counted). Seats: the soonest lease end that frees enough (a whole
             lease if the leases held never free enough), else the soonest lease end held
  mode "2" ends an allowed call's reply with one number per window: the sub-bucket it recorded in (-1 - b
  for weight reserved in sub-bucket b), or for seats the id of the lease it took (0 for a weight of 0, which
  takes none)
A denied call and a report write nothing. A call that fails (an error inside the script, a write Redis refuses)
ends the batch: its reply is a string "failed: <why>; command: <the last command it sent>" and the calls
after it get none; the calls before it
keep their replies and what they recorded (Redis does not roll a script back). The one failing may have
written part of its keys.

Refund (mode "-1"): undoes an allowed "2" call, for a call whose part on other keys was denied (Redis
Cluster, keys in several hash slots), whose weight is given back (a successful call of a target that counts
only failures) or that ended (its seats are released). Its section as that call's (or a part of it), its now ignored, followed by one sub-bucket
per window in order: the numbers that call's reply ended with, in base 36. Each window's weight is
subtracted from that sub-bucket (a reserved one's entry) and from the window's total, so counts are exactly as if the call had never
been recorded (a reserved one's: the latest reservation becomes at most the end of the newest sub-bucket still
reserved, 0 when none is, so a reservation given back holds back no later caller); a sub-bucket that has since left the window is not touched (its weight is gone already). An
emptied oldest sub-bucket is passed over (h moves to the next one holding weight); an emptied later one of a
chain stays linked with weight 0 (it changes no count and no wait: a call passes over it when it would
become the oldest). Seats: the lease with that id is removed, if it is still there; the field is deleted
when no lease is left.
A refund's reply: empty.

Leases (mode "3"): a call of one key (no seats, no reservation) whose weight w is the same in every window,
with "wait" the most it asks for (L >= w), "lease" the caller's generation token, and after its windows one
more number: the longest a lease lives (ms). It is granted g = min(L, r, max(w, floor(r / 2))), r the least
remaining of its windows now (so one lease takes at most half of what is left, unless that is less than w),
and g = w when less than a tenth of the longest a lease lives is left in the current sub-bucket of one of its
windows (no lease then: the call alone), recorded as a mode "2" call of weight g; when r < w it is denied as the call of weight w would be. The key's
fields "gen" (its generation: set to the caller's token when absent) and "until" (the latest end of a lease
granted on it, ms) are written with a grant. A grant's reply is a mode "2" reply ending with three more
numbers: g; how long it lives: the least of the longest and the milliseconds until the first of its windows'
current sub-buckets ends ((floor(now / p) + 1) * p - now); the key's generation. A denied lease's reply is
the call's denial ending with one more number: the milliseconds until the key's leases all ended (0 when none
lives), the most a denial may be taken as certain (a lease gives back what it did not use). What a lease does
not use is given back as a refund of that weight with "lease" = the generation: it is refunded only while the
key's "gen" is that generation (a reset deletes the key, and a refund never crosses it). ]]

local RING = 64
local KEYS, ARGV, tonumber = KEYS, ARGV, tonumber
local HEAD = '<dI4I4I4'
local LEASE = '<ddI4'
local pack, unpack4 = struct.pack, struct.unpack
local floor = math.floor
local slack = tonumber(ARGV[1], 36)

-- every Redis command goes through call, so that a call that fails can say which command Redis refused
local running = false
local function call(command, ...)
  running = command
  return redis.call(command, ...)
end

-- A ring holds k weights of 2 bytes (while every weight fits in 16 bits) or 4; its width is its length / k.
-- the weight of sub-bucket x in ring r of k slots
local function slot(r, x, k)
  if #r == 2 * k then
    return (unpack4('<I2', r, 2 * (x % k) + 1))
  end
  return (unpack4('<I4', r, 4 * (x % k) + 1))
end

-- ring r with the slot of sub-bucket x set to v (widened to 4 bytes a slot if v needs it)
local function setSlot(r, x, k, v)
  local width = #r / k
  if width == 2 and v > 65535 then
    local wide = {}
    for i = 0, k - 1 do
      wide[i + 1] = pack('<I4', (unpack4('<I2', r, 2 * i + 1)))
    end
    r, width = table.concat(wide), 4
  end
  local at = width * (x % k)
  return r:sub(1, at) .. pack(width == 2 and '<I2' or '<I4', v) .. r:sub(at + width + 1)
end

-- the ring of a window of k <= RING sub-buckets, whole; a new one is all zeros
local function ringOf(key, tag, k)
  local names = {}
  for i = 0, math.ceil(k / 16) - 1 do
    names[i + 1] = tag .. 'r' .. i
  end
  local pieces = call('HMGET', key, unpack(names))
  local parts = {}
  for i = 1, #pieces do
    if not pieces[i] then break end
    parts[i] = pieces[i]
  end
  local r = table.concat(parts)
  if #r ~= 2 * k and #r ~= 4 * k then
    r = string.rep('\0', 2 * k)
  end
  return r
end

-- appends the HSET arguments writing ring r to out (o arguments so far); returns the new count
local function putRing(out, o, tag, r)
  for i = 0, math.ceil(#r / 64) - 1 do
    out[o + 1] = tag .. 'r' .. i
    out[o + 2] = r:sub(64 * i + 1, 64 * i + 64)
    o = o + 2
  end
  return o
end

-- Refund of weight w reserved in sub-bucket rb of window tag: taken from its entry, if it is still there; the
-- latest reservation left holds back later callers, not the one given back: no later than the end of the newest
-- sub-bucket still reserved (nothing left: none).
local function refundReserved(key, tag, p, rb, w)
  local v = call('HGET', key, tag .. '+')
  if not v or w == 0 then return end
  local entries, newest, found = { '' }, false, false
  for y = 9, #v, 12 do
    local eb, ew = unpack4('<dI4', v, y)
    if eb == rb then
      found = true
      ew = ew - w
      if ew < 0 then ew = 0 end
    end
    if ew > 0 then
      entries[#entries + 1] = pack('<dI4', eb, ew)
      newest = eb
    end
  end
  local last = unpack4('<d', v)
  local bound = 0
  if newest then bound = (newest + 1) * p - 1 end
  if found and bound < last then last = bound end
  entries[1] = pack('<d', last)
  call('HSET', key, tag .. '+', table.concat(entries))
end

-- Refund of a seat: the lease with id b leaves the field, which goes when no lease is left.
local function refundSeat(key, tag, b)
  local head = call('HGET', key, tag)
  if not head then return end
  local kept, found = {}, false
  for y = 9, #head, 20 do
    local _, id = unpack4(LEASE, head, y)
    if id == b and not found then found = true else kept[#kept + 1] = head:sub(y, y + 19) end
  end
  if found and #kept == 0 then
    call('HDEL', key, tag)
  elseif found then
    call('HSET', key, tag, head:sub(1, 8) .. table.concat(kept))
  end
end

-- Refund of weight w recorded in sub-bucket b of a rate window of k sub-buckets, if b is still counted (h <= b <=
-- n: its slot is reused only after it left the window); an emptied oldest sub-bucket is passed over.
local function refundWindow(key, tag, k, b, w)
  local head = call('HGET', key, tag)
  if not head or w == 0 then return end
  local n, t, c, d = unpack4(HEAD, head)
  -- the mark of a window holding reservations stays
  local mark = head:sub(21)
  local h = n - d
  if t == 0 or b < h or b > n then return end
  if b == n then
    if w > c then w = c end
    call('HSET', key, tag, pack(HEAD, n, t - w, c - w, d) .. mark)
  elseif k <= RING then
    local r = ringOf(key, tag, k)
    local cb = slot(r, b, k)
    if w > cb then w = cb end
    if w > 0 then
      r = setSlot(r, b, k, cb - w)
      if b == h then
        while h < n and slot(r, h, k) == 0 do h = h + 1 end
      end
      local args = { tag, pack(HEAD, n, t - w, c, n - h) .. mark }
      call('HSET', key, unpack(args, 1, putRing(args, 2, tag, r)))
    end
  else
    local field = tag .. pack('<I3', b % k)
    -- absent only if the key was reset and written again since: nothing of this call is left
    local v = call('HGET', key, field)
    local cb, step = 0, 0
    if v then cb, step = unpack4('<I4I4', v) end
    if w > cb then w = cb end
    if w == 0 then
      -- nothing to take back
    elseif b == h and cb == w then
      -- the oldest sub-bucket is now empty: the next one holding weight becomes the oldest
      call('HDEL', key, field)
      h = h + step
      while h < n do
        local cy
        cy, step = unpack4('<I4I4', call('HGET', key, tag .. pack('<I3', h % k)))
        if cy > 0 then break end
        h = h + step
      end
      call('HSET', key, tag, pack(HEAD, n, t - w, c, n - h) .. mark)
    else
      call('HSET', key, field, pack('<I4I4', cb - w, step), tag, pack(HEAD, n, t - w, c, d) .. mark)
    end
  end
end

-- Refunds the call whose section's keys start at ARGV[a] (keyCount keys); returns where the next call starts.
local function refund(a, keyCount, generation)
  local undo = {}
  for _ = 1, keyCount do
    local key = KEYS[tonumber(ARGV[a], 36)]
    local m = tonumber(ARGV[a + 1], 36)
    -- a lease's give-back: only into the generation it was leased from
    local keep = generation == '' or call('HGET', key, 'gen') == generation
    a = a + 2
    for _ = 1, m do
      undo[#undo + 1] = { key = key, tag = ARGV[a], p = tonumber(ARGV[a + 2], 36), k = tonumber(ARGV[a + 3], 36),
        w = tonumber(ARGV[a + 4], 36), keep = keep }
      a = a + 5
    end
  end
  for _, u in ipairs(undo) do
    local b = ARGV[a]
    if b:sub(1, 1) == '-' then b = -tonumber(b:sub(2), 36) else b = tonumber(b, 36) end
    a = a + 1
    if not u.keep then
      -- another generation's counts: left alone
    elseif u.k == 0 then
      refundSeat(u.key, u.tag, b)
    elseif b < 0 then
      refundReserved(u.key, u.tag, u.p, -1 - b, u.w)
    else
      refundWindow(u.key, u.tag, u.k, b, u.w)
    end
  end
  return a
end

-- Reservations (see the header): the window's weight per sub-bucket, as two lists, oldest first.

-- the sub-buckets from h to n of window tag holding weight (c in n), and their weights
local function blocksOf(key, tag, k, h, n, c, ring)
  local bs, ws = {}, {}
  if k <= RING then
    if h < n and not ring then ring = ringOf(key, tag, k) end
    for y = h, n - 1 do
      local v = slot(ring, y, k)
      if v > 0 then bs[#bs + 1], ws[#ws + 1] = y, v end
    end
  else
    local y = h
    while y < n do
      local v, step = unpack4('<I4I4', call('HGET', key, tag .. pack('<I3', y % k)))
      if v > 0 then bs[#bs + 1], ws[#ws + 1] = y, v end
      y = y + step
    end
  end
  if c > 0 then bs[#bs + 1], ws[#ws + 1] = n, c end
  return bs, ws
end

-- the reservations of window tag: the latest reserved time and the entries from sub-bucket `from` on
local function reservedOf(key, tag, from)
  local v = call('HGET', key, tag .. '+')
  local bs, ws, last = {}, {}, 0
  if v then
    last = unpack4('<d', v)
    for y = 9, #v, 12 do
      local rb, rw = unpack4('<dI4', v, y)
      if rb >= from and rw > 0 then bs[#bs + 1], ws[#ws + 1] = rb, rw end
    end
  end
  return last, bs, ws
end

-- two lists of sub-buckets and weights merged into one, oldest first (a sub-bucket in both sums its weights)
local function merged(b1, w1, b2, w2)
  local bs, ws, i, j = {}, {}, 1, 1
  while i <= #b1 or j <= #b2 do
    local y
    if j > #b2 or (i <= #b1 and b1[i] <= b2[j]) then y = b1[i] else y = b2[j] end
    local v = 0
    if i <= #b1 and b1[i] == y then v, i = v + w1[i], i + 1 end
    if j <= #b2 and b2[j] == y then v, j = v + w2[j], j + 1 end
    bs[#bs + 1], ws[#ws + 1] = y, v
  end
  return bs, ws
end

-- the fullest window of k sub-buckets holding sub-bucket b: those ending at b and at each later sub-bucket
-- holding weight, before b + k
local function peak(bs, ws, k, b)
  local best = -1
  for i = 0, #bs do
    local e = b
    if i > 0 then e = bs[i] end
    if i == 0 or (e > b and e < b + k) then
      local sum = 0
      for j = 1, #bs do
        if bs[j] > e - k and bs[j] <= e then sum = sum + ws[j] end
      end
      if sum > best then best = sum end
    end
  end
  return best
end

-- the sub-bucket a call of window v would be recorded in at time t: its own, unless t's is later
local function recordedAt(v, t)
  local b = floor(t / v.p)
  if b < v.b then b = v.b end
  return b
end

-- the earliest time t, from <= t <= to, at which every window of vs allows its weight (false: none); t is
-- from or the end of a window holding a sub-bucket with weight, the only times an answer can change
local function earliest(vs, from, to)
  local times = { from }
  for _, v in ipairs(vs) do
    for _, y in ipairs(v.bs) do
      local t = (y + v.k) * v.p
      if t > from and t <= to then times[#times + 1] = t end
    end
  end
  table.sort(times)
  for _, t in ipairs(times) do
    local fits = true
    for _, v in ipairs(vs) do
      if peak(v.bs, v.ws, v.k, recordedAt(v, t)) + v.w > v.limit then
        fits = false
        break
      end
    end
    if fits then return t end
  end
  return false
end

local serverNow = false

-- Deciding one call. Its state q: now; record (it is recorded when allowed); waits (it may be reserved); seats
-- (it holds seats: it never waits); allowed; vs (what a reservation needs of each rate window); reply and its
-- cursor r; st, per window in order, seven numbers (t h n c b r a: the window's state before this call, b the
-- sub-bucket of this call; for seats: weight held, the field as read, the soonest lease end, -, the lease id)
-- and its cursor x; while a key's windows are read, its HSET arguments out (o of them) and the end of its newest
-- weight before and after this call. Tables are created at their usual size: growing them costs more than the
-- rest of the pass.

-- Seats of an in-flight limit (see Seats): the field v as read; whether weight w fits under limit at now, the
-- figures, and the field as if the seat were taken (a lease of p ms).
local function seatsDecide(q, tag, limit, p, w, v, lease)
  local now, st, x = q.now, q.st, q.x
  q.seats = true
  local t, soonest, kept, last = 0, false, {}, 0
  if v then
    last = unpack4('<d', v)
    for y = 9, #v, 20 do
      local e, _, lw = unpack4(LEASE, v, y)
      if e > now then
        t = t + lw
        kept[#kept + 1] = v:sub(y, y + 19)
        if not soonest or e < soonest then soonest = e end
        if e > q.before then q.before = e end
      end
    end
  end
  if t + w > limit then q.allowed = false end
  st[x + 1], st[x + 2], st[x + 3], st[x + 4], st[x + 6] = t, v or false, soonest, false, false
  local id = 0
  if w > 0 then
    if lease then
      id = lease
    else
      id = last + 1
      if id < now * 1000 then id = now * 1000 end
    end
    if id > last then last = id end
    local e = now + p
    kept[#kept + 1] = pack(LEASE, e, id, w)
    local out, o = q.out, q.o
    out[o + 1] = tag
    out[o + 2] = pack('<d', last) .. table.concat(kept)
    q.o = o + 2
    if not soonest or e < soonest then soonest = e end
    if e > q.after then q.after = e end
  end
  st[x + 5], st[x + 7] = id, false
  q.x = x + 7
  local remaining = limit - t - w
  if remaining < 0 then remaining = 0 end
  local reply, r = q.reply, q.r
  reply[r + 1] = remaining
  if soonest then reply[r + 2] = soonest - now else reply[r + 2] = 0 end
  q.r = r + 2
end

-- What a rate window (header head as read) counts at sub-bucket b: t h n c (false when nothing is counted), its
-- ring if read, and b (the newest sub-bucket if the clock went back).
local function windowCounted(key, tag, k, b, head)
  if not head then return 0, false, false, false, false, b end
  local hn, ht, hc, hd = unpack4(HEAD, head)
  if ht == 0 then return 0, false, false, false, false, b end
  -- the clock went back: keep counting in the newest sub-bucket rather than rewrite the past
  if b < hn then b = hn end
  local trim = b - k + 1
  if hn < trim then return 0, false, false, false, false, b end
  local hh, ring = hn - hd, false
  if hh >= trim then
    -- nothing leaves
  elseif k <= RING then
    ring = ringOf(key, tag, k)
    while hh < trim do
      ht = ht - slot(ring, hh, k)
      hh = hh + 1
    end
    while hh < hn and slot(ring, hh, k) == 0 do hh = hh + 1 end
  else
    local cv, step = 0, 0
    while hh < trim do
      cv, step = unpack4('<I4I4', call('HGET', key, tag .. pack('<I3', hh % k)))
      ht = ht - cv
      hh = hh + step
    end
    -- a sub-bucket whose weight was all given back stays linked with weight 0: pass over it
    while hh < hn do
      cv, step = unpack4('<I4I4', call('HGET', key, tag .. pack('<I3', hh % k)))
      if cv > 0 then break end
      hh = hh + step
    end
  end
  return ht, hh, hn, hc, ring, b
end

-- Appends to q.out the fields that close sub-bucket n (weight c) of a window whose call starts sub-bucket b > n.
local function windowClose(q, key, tag, k, n, c, b, ring)
  if k <= RING then
    -- the ring after sub-bucket n closed and b started: slot n holds c, the slots of the sub-buckets in
    -- between hold 0 (they may still hold weight from k sub-buckets earlier); b - n < k
    local rg = ring
    if not rg then rg = ringOf(key, tag, k) end
    local width, gap, from = #rg / k, b - n - 1, (n + 1) % k
    if gap > 0 then
      local zeros = width * gap
      if from + gap <= k then
        rg = rg:sub(1, width * from) .. string.rep('\0', zeros) .. rg:sub(width * (from + gap) + 1)
      else
        local wrapped = from + gap - k
        rg = string.rep('\0', width * wrapped) .. rg:sub(width * wrapped + 1, width * from)
          .. string.rep('\0', width * (k - from))
      end
    end
    q.o = putRing(q.out, q.o, tag, setSlot(rg, n, k, c))
  else
    local out, o = q.out, q.o
    out[o + 1] = tag .. pack('<I3', n % k)
    out[o + 2] = pack('<I4I4', c, b - n)
    q.o = o + 2
  end
end

-- A rate window of k sub-buckets of p ms (key i of the call): whether weight w fits under limit in sub-bucket
-- floor(now / p), reservations included; the figures, and the fields as if the call were recorded.
local function windowDecide(q, i, key, tag, limit, p, k, w, head)
  local now = q.now
  local t, h, n, c, ring, b = windowCounted(key, tag, k, floor(now / p), head)
  if n then
    local ends = (n + k) * p
    if ends > q.before then q.before = ends end
  end
  -- reservations (see the header): every sub-bucket's weight, reserved weight included
  local used, all, last = t, false, 0
  if head and #head > 20 then
    local rb, rw
    last, rb, rw = reservedOf(key, tag, b - k + 1)
    if #rb > 0 then
      local mb, mw = {}, {}
      if t > 0 then mb, mw = blocksOf(key, tag, k, h, n, c, ring) end
      local bs, ws = merged(mb, mw, rb, rw)
      all = { bs = bs, ws = ws, rb = rb, rw = rw }
      used = peak(bs, ws, k, b)
    end
  end
  if used + w > limit then q.allowed = false end
  local v = false
  if q.waits then
    v = { i = i, tag = tag, limit = limit, p = p, k = k, w = w, b = b, t = t, h = h, n = n, c = c,
      ring = ring, all = all, last = last, head = head, o1 = q.o, r = q.r, x = q.x }
    q.vs[#q.vs + 1] = v
  end
  -- as if recorded
  local at = b * p
  if at < now then at = now end
  local c2 = w
  if t == 0 then
    h = b
  elseif b == n then
    c2 = c + w
  else
    windowClose(q, key, tag, k, n, c, b, ring)
  end
  local st, x = q.st, q.x
  st[x + 1], st[x + 2], st[x + 3], st[x + 4], st[x + 5], st[x + 6], st[x + 7] = t, h, n, c, b, ring, all
  q.x = x + 7
  t = t + w
  local out, o = q.out, q.o
  out[o + 1] = tag
  out[o + 2] = pack(HEAD, b, t, c2, b - h)
  if all then out[o + 2] = out[o + 2] .. '+' end
  q.o = o + 2
  if v then v.o2 = q.o end
  local ends = (b + k) * p
  if ends > q.after then q.after = ends end
  local remaining = limit - used - w
  if remaining < 0 then remaining = 0 end
  local reply, r = q.reply, q.r
  reply[r + 1] = remaining
  if all then
    local oldest = all.bs[1]
    if w > 0 and b < oldest then oldest = b end
    reply[r + 2] = (oldest + k) * p - at
  elseif t > 0 then
    reply[r + 2] = (h + k) * p - at
  else
    reply[r + 2] = 0
  end
  q.r = r + 2
end

-- Reservations (see the header): a call denied now that may wait maxWait ms is reserved at the earliest time every
-- window allows it, not before any window's latest reservation; pending holds per key (five numbers: key, HSET
-- arguments, their count, end of its newest weight before and after this call) what the call writes, in which a
-- reserved window's writes are replaced by its reservation. Returns whether it was reserved.
local function reserve(q, pending, maxWait)
  local now, vs, reply = q.now, q.vs, q.reply
  local from, to = now, now + maxWait
  for _, v in ipairs(vs) do
    if v.last > from then from = v.last end
    if v.all then
      v.bs, v.ws = v.all.bs, v.all.ws
    elseif v.t > 0 then
      v.bs, v.ws = blocksOf(pending[(v.i - 1) * 5 + 1], v.tag, v.k, v.h, v.n, v.c, v.ring)
    else
      v.bs, v.ws = {}, {}
    end
  end
  local t0 = from <= to and earliest(vs, from, to)
  if not t0 then return false end
  reply[1] = 1 + t0 - now
  local outs = {}
  for _, v in ipairs(vs) do
    local s = (v.i - 1) * 5
    local rec = recordedAt(v, t0)
    -- a window the call takes nothing from keeps no reservation of it (and no later latest reservation)
    if rec > v.b and v.w > 0 then
      local out = pending[s + 2]
      local o = outs[v.i]
      if not o then o = { out = {}, at = 1 } outs[v.i] = o end
      for y = o.at, v.o1 do o.out[#o.out + 1] = out[y] end
      o.at = v.o2 + 1
      local rb, rw = {}, {}
      if v.all then rb, rw = v.all.rb, v.all.rw end
      rb, rw = merged(rb, rw, { rec }, { v.w })
      local last = v.last
      if t0 > last then last = t0 end
      local entries = { pack('<d', last) }
      for j = 1, #rb do entries[j + 1] = pack('<dI4', rb[j], rw[j]) end
      o.out[#o.out + 1] = v.tag .. '+'
      o.out[#o.out + 1] = table.concat(entries)
      o.out[#o.out + 1] = v.tag
      if v.head then o.out[#o.out + 1] = v.head:sub(1, 20) .. '+' else o.out[#o.out + 1] = pack(HEAD, 0, 0, 0, 0) .. '+' end
      local ends = (rec + v.k) * v.p
      if ends > pending[s + 5] then pending[s + 5] = ends end
      local remaining = v.limit - peak(v.bs, v.ws, v.k, rec) - v.w
      if remaining < 0 then remaining = 0 end
      local oldest = rec
      if #v.bs > 0 and v.bs[1] < rec then oldest = v.bs[1] end
      reply[v.r + 1], reply[v.r + 2] = remaining, (oldest + v.k) * v.p - now
      q.st[v.x + 5] = -1 - rec
    end
  end
  for i, o in pairs(outs) do
    local s = (i - 1) * 5
    local out = pending[s + 2]
    for y = o.at, pending[s + 3] do o.out[#o.out + 1] = out[y] end
    pending[s + 2], pending[s + 3] = o.out, #o.out
  end
  return true
end

-- Writes what an allowed call records, key by key (pending as in reserve), and moves each key's expiry.
local function write(now, pending, keyCount)
  for s = 0, keyCount * 5 - 1, 5 do
    local key, before, after = pending[s + 1], pending[s + 4], pending[s + 5]
    -- a key whose windows are all seats of weight 0 has nothing to write
    if pending[s + 3] > 0 then
      call('HSET', key, unpack(pending[s + 2], 1, pending[s + 3]))
    end
    -- a key's expiry follows the end of its newest weight and is extended only when that end moves out
    -- (other methods sharing this bucket may keep longer windows in the same key)
    if after > before then
      local ttl = after - now + slack
      if call('PTTL', key) < ttl then
        call('PEXPIRE', key, ttl)
      end
    end
  end
end

-- The figures of a denied call for seats (state as in st): the weight held; when violated, minus the wait until
-- enough leases end (never enough: a whole lease), else the wait until the soonest lease end held.
local function seatsDenied(now, limit, p, w, t, field, soonest)
  local wait = 0
  if t + w > limit then
    local ends = {}
    if field then
      for y = 9, #field, 20 do
        local e, _, lw = unpack4(LEASE, field, y)
        if e > now then ends[#ends + 1] = { e, lw } end
      end
    end
    table.sort(ends, function(u, v) return u[1] < v[1] end)
    local need, freed = t + w - limit, 0
    wait = -p
    for _, e in ipairs(ends) do
      freed = freed + e[2]
      if freed >= need then
        wait = now - e[1]
        break
      end
    end
  elseif t > 0 then
    wait = soonest - now
  end
  return limit - t, wait
end

-- The figures of a denied call for a rate window (state as in st): with reservations all, the fullest window
-- holding b and the earliest time the call fits; without, the wait until enough weight leaves the window.
local function windowDenied(now, key, tag, limit, p, k, w, t, h, n, c, b, ring, all)
  local at = b * p
  if at < now then at = now end
  if all then
    local used = peak(all.bs, all.ws, k, b)
    if used + w <= limit then return limit - used, (all.bs[1] + k) * p - at end
    local fits = earliest({ { bs = all.bs, ws = all.ws, k = k, p = p, limit = limit, w = w, b = b } }, at, math.huge)
    if not fits then
      -- heavier than the limit: a whole window after the newest weight
      local newest = all.bs[#all.bs]
      if newest < b then newest = b end
      fits = (newest + k) * p
    end
    return limit - used, at - fits
  end
  if t + w <= limit then
    if t > 0 then return limit - t, (h + k) * p - at end
    return limit - t, 0
  end
  -- from the oldest sub-bucket on, until enough weight has left the window
  local need, freed, y = t + w - limit, 0, h
  if k <= RING and h < n and not ring then ring = ringOf(key, tag, k) end
  while true do
    local cy, step
    if y == n then
      cy, step = c, 0
    elseif k <= RING then
      cy, step = slot(ring, y, k), 1
    else
      cy, step = unpack4('<I4I4', call('HGET', key, tag .. pack('<I3', y % k)))
    end
    freed = freed + cy
    if freed >= need or step == 0 then
      -- negative: this window is violated (the wait is at least 1 ms, as y + k > b)
      return limit - t, at - (y + k) * p
    end
    y = y + step
  end
end

-- Rewrites the reply of a denied call (keys from ARGV[a]) from the state each window had before it.
local function denied(q, a, keyCount)
  local now, st, reply = q.now, q.st, q.reply
  reply[1] = 0
  local r, x = 1, 0
  for _ = 1, keyCount do
    local key = KEYS[tonumber(ARGV[a], 36)]
    local m = tonumber(ARGV[a + 1], 36)
    a = a + 2
    for _ = 1, m do
      local tag = ARGV[a]
      local limit, p, k = tonumber(ARGV[a + 1], 36), tonumber(ARGV[a + 2], 36), tonumber(ARGV[a + 3], 36)
      local w = tonumber(ARGV[a + 4], 36)
      a = a + 5
      local remaining, wait
      if k == 0 then
        remaining, wait = seatsDenied(now, limit, p, w, st[x + 1], st[x + 2], st[x + 3])
      else
        remaining, wait = windowDenied(now, key, tag, limit, p, k, w, st[x + 1], st[x + 2], st[x + 3], st[x + 4],
          st[x + 5], st[x + 6], st[x + 7])
      end
      x = x + 7
      if remaining < 0 then remaining = 0 end
      reply[r + 1], reply[r + 2] = remaining, wait
      r = r + 2
    end
  end
end

-- Decides the call whose section's keys start at ARGV[a0] (keyCount keys) at now (nil: the server clock) in
-- mode mode, reserving it if it may wait maxWait ms, its seats under the lease id lease (nil: the script chooses);
-- returns its reply and where the next call starts. One pass
-- reads every window and prepares the reply and the writes as if the call were recorded (the common case); a
-- denied call rebuilds its reply from the state each window had.
local function decide(now, mode, maxWait, lease, a0, keyCount, weight)
  if not now then
    if not serverNow then
      local time = call('TIME')
      serverNow = tonumber(time[1]) * 1000 + floor(tonumber(time[2]) / 1000)
    end
    now = serverNow
  end
  local record = mode == '1' or mode == '2'
  local q = { now = now, waits = record and maxWait > 0, seats = false, allowed = true, vs = {},
    st = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }, x = 0,
    reply = { 1, 0, 0, 0, 0, 0, 0, 0, 0, 0 }, r = 1, out = false, o = 0, before = 0, after = 0 }
  local pending = { 0, 0, 0, 0, 0 }
  local a = a0
  for i = 1, keyCount do
    local key = KEYS[tonumber(ARGV[a], 36)]
    local m = tonumber(ARGV[a + 1], 36)
    a = a + 2
    local heads
    if m == 1 then
      heads = call('HMGET', key, ARGV[a])
    elseif m == 2 then
      heads = call('HMGET', key, ARGV[a], ARGV[a + 5])
    else
      local fields = {}
      for j = 1, m do fields[j] = ARGV[a + (j - 1) * 5] end
      heads = call('HMGET', key, unpack(fields))
    end
    q.out, q.o, q.before, q.after = { 0, 0, 0, 0, 0, 0, 0, 0 }, 0, 0, 0
    for j = 1, m do
      local tag = ARGV[a]
      local limit, p, k = tonumber(ARGV[a + 1], 36), tonumber(ARGV[a + 2], 36), tonumber(ARGV[a + 3], 36)
      local w = 0
      if record then w = weight or tonumber(ARGV[a + 4], 36) end
      a = a + 5
      if k == 0 then
        seatsDecide(q, tag, limit, p, w, heads[j], lease)
      else
        windowDecide(q, i, key, tag, limit, p, k, w, heads[j])
      end
    end
    local s = (i - 1) * 5
    pending[s + 1], pending[s + 2], pending[s + 3], pending[s + 4], pending[s + 5] = key, q.out, q.o, q.before, q.after
  end
  local allowed = q.allowed
  if not allowed and q.waits and not q.seats then
    allowed = reserve(q, pending, maxWait)
  end
  if not allowed then
    denied(q, a0, keyCount)
  elseif record then
    write(now, pending, keyCount)
  end
  local reply, r = q.reply, q.r
  if mode == '2' then
    for y = 0, q.x - 1, 7 do
      r = r + 1
      reply[r] = q.st[y + 5]
    end
  end
  -- the reply ends at its first nil
  reply[r + 1] = nil
  return reply, a, r
end

-- A lease (see Leases): up to "asked", at most half of what every window has left (at least w), recorded as a mode
-- "2" call of that weight; its reply ends with what was granted, the milliseconds it may live, and the key's
-- generation. A lease denied: the call's denial, ending with how long the key's leases may still live.
local function leaseDecide(now, asked, token, a0, keyCount)
  local report, trailer = decide(now, '0', 0, nil, a0, keyCount)
  local life = tonumber(ARGV[trailer], 36)
  local w, least, soonest = 0, false, false
  local a, r = a0, 1
  for _ = 1, keyCount do
    local m = tonumber(ARGV[a + 1], 36)
    a = a + 2
    for _ = 1, m do
      local p, pw = tonumber(ARGV[a + 2], 36), tonumber(ARGV[a + 4], 36)
      a = a + 5
      if pw > w then w = pw end
      local remaining = report[r + 1]
      if not least or remaining < least then least = remaining end
      r = r + 2
      local t = now or serverNow
      local left = (floor(t / p) + 1) * p - t
      if not soonest or left < soonest then soonest = left end
    end
  end
  if life < soonest then soonest = life end
  local g = floor(least / 2)
  if g < w then g = w end
  if g > asked then g = asked end
  -- less than a tenth of a lease's life left in the sub-bucket: the call alone
  if soonest * 10 < life then g = w end
  if g > least then g = least end
  local t = now or serverNow
  local key = KEYS[tonumber(ARGV[a0], 36)]
  local held = call('HMGET', key, 'gen', 'until')
  local generation, ends = held[1], tonumber(held[2]) or 0
  -- too little left: decided (and denied) as the call itself
  local reply, _, n = decide(now, '2', 0, nil, a0, keyCount, g >= w and g or nil)
  if reply[1] == 0 then
    local lives = ends - t
    if lives < 0 then lives = 0 end
    reply[n + 1], reply[n + 2] = lives, nil
    return reply, trailer + 1
  end
  if not generation then generation = token end
  if t + soonest > ends then ends = t + soonest end
  call('HSET', key, 'gen', generation, 'until', ends)
  reply[n + 1], reply[n + 2], reply[n + 3], reply[n + 4] = g >= w and g or w, soonest, tonumber(generation, 36), nil
  return reply, trailer + 1
end

local replies = {}
local a = 3
for c = 1, tonumber(ARGV[2], 36) do
  local now, mode, maxWait, lease, keyCount = tonumber(ARGV[a], 36), ARGV[a + 1], tonumber(ARGV[a + 2], 36),
    tonumber(ARGV[a + 3], 36), tonumber(ARGV[a + 4], 36)
  -- a call that fails ends the batch there: the calls before it keep their replies (their writes stay), and
  -- its own reply is the error's text (see Reply)
  local ok, reply, nxt
  if mode == '-1' then
    ok, nxt = pcall(refund, a + 5, keyCount, ARGV[a + 3])
    if ok then reply = {} else reply = nxt end
  elseif mode == '3' then
    ok, reply, nxt = pcall(leaseDecide, now, maxWait, ARGV[a + 3], a + 5, keyCount)
  else
    ok, reply, nxt = pcall(decide, now, mode, maxWait, lease, a + 5, keyCount)
  end
  if not ok then
    -- redis.call raises a table holding the error reply
    if type(reply) == 'table' and reply.err then reply = reply.err end
    replies[c] = 'failed: ' .. tostring(reply) .. '; command: ' .. tostring(running)
    return replies
  end
  replies[c], a = reply, nxt
end
return replies
