-- The least a script of Throttle's shape can cost, for the benchmark only (it decides nothing): with
-- Throttle's KEYS and ARGV for three windows, it reads the server clock, reads the three packed headers
-- with one HMGET, unpacks them, packs three new ones, writes them with one HSET and returns a constant
-- reply of Throttle's size.
local HEAD = '<dI4I4I4'
local time = redis.call('TIME')
local now = time[1] * 1000 + math.floor(time[2] / 1000)
local h = redis.call('HMGET', KEYS[1], ARGV[5], ARGV[10], ARGV[15])
local n1, t1, c1, d1, n2, t2, c2, d2, n3, t3, c3, d3 = 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
if h[1] then n1, t1, c1, d1 = struct.unpack(HEAD, h[1]) end
if h[2] then n2, t2, c2, d2 = struct.unpack(HEAD, h[2]) end
if h[3] then n3, t3, c3, d3 = struct.unpack(HEAD, h[3]) end
redis.call('HSET', KEYS[1], ARGV[5], struct.pack(HEAD, n1, t1 + 1, c1 + 1, d1), ARGV[10],
  struct.pack(HEAD, n2, t2 + 1, c2 + 1, d2), ARGV[15], struct.pack(HEAD, n3, t3 + 1, c3 + 1, d3))
return { 1, 5, 0, 5, 0, 5, 0 }
