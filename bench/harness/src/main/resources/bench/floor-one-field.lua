-- What a script of another layout would cost at least, for the benchmark only (it decides nothing): every
-- window of the key in one field, and the windows' fifteen arguments sent as one. Given the time in
-- ARGV[1], it reads that field with one HGET, unpacks three window headers from it, packs three new ones,
-- writes the field with one HSET and returns a constant reply of Throttle's size.
local HEAD = '<dI4I4I4dI4I4I4dI4I4I4'
local now = tonumber(ARGV[1], 36)
local h = redis.call('HGET', KEYS[1], 'w')
local n1, t1, c1, d1, n2, t2, c2, d2, n3, t3, c3, d3 = now, 0, 0, 0, now, 0, 0, 0, now, 0, 0, 0
if h then n1, t1, c1, d1, n2, t2, c2, d2, n3, t3, c3, d3 = struct.unpack(HEAD, h) end
redis.call('HSET', KEYS[1], 'w', struct.pack(HEAD, n1, t1 + 1, c1 + 1, d1, n2, t2 + 1, c2 + 1, d2, n3, t3 + 1, c3 + 1, d3))
return { 1, 5, 0, 5, 0, 5, 0 }
