-- For wrk on /hot: an answer is 200 (allowed), 429 (denied) or 503 (the store failed: the app runs with
-- throttle.on-store-failure=deny, so that no call is allowed without being counted); wrk counts the last two
-- among its "Non-2xx or 3xx responses". The 503s are printed; wrk exits with 1 if any other status came.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  unavailable = 0
  others = 0
end

function response(status, headers, body)
  if status == 503 then
    unavailable = unavailable + 1
  elseif status ~= 200 and status ~= 429 then
    others = others + 1
  end
end

function done(summary, latency, requests)
  local u, o = 0, 0
  for _, t in ipairs(threads) do
    u = u + t:get("unavailable")
    o = o + t:get("others")
  end
  io.write("Store failures (503): " .. u .. "\n")
  if o > 0 then
    io.write(o .. " answers other than 200, 429 and 503\n")
    os.exit(1)
  end
end
