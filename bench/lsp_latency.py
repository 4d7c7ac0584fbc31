#!/usr/bin/env python3
"""Editor latency with a 1 GB JFR loaded: how long an editor waits for what it asks.

Builds BUILD/bench-data/lsp-1g.jfr (copies of the java-shop ap-multi.jfr recording
concatenated to >= 1 GB: cpu, alloc and lock events, about 44 M samples; reused when
present), starts `hotlines serve` like an editor (the java-shop folder as the workspace,
Pricing.java open), loads the file and times, from the client's side of the pipe:
  - the load (parse + index + source resolution),
  - the first hotlines/fileAnnotations after the load (target <= 10 ms), then the next ones,
  - textDocument/hover on the hot line (target <= 20 ms), inlay hints, code lenses,
  - hotlines/flameGraph (time and message size; target < 2 MB), workspace/symbol,
  - the same annotations under a thread filter (a filtered view: a pass over the samples).
Numbers vary on shared machines; compare them within one run.
Usage: bench/lsp_latency.py [BUILD_DIR] [--gb N]
"""
import json, os, statistics, subprocess, sys, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
args = [a for a in sys.argv[1:] if not a.startswith('--')]
build = os.path.abspath(args[0] if args else os.path.join(root, 'build'))
gb = float(sys.argv[sys.argv.index('--gb') + 1]) if '--gb' in sys.argv else 1.0
java_shop = os.path.join(root, 'tests/fixtures/java-shop')
source = os.path.join(java_shop, 'src/main/java/org/acme/shop/Pricing.java')
uri = 'file://' + source

data = os.path.join(build, 'bench-data')
os.makedirs(data, exist_ok=True)
big = os.path.join(data, 'lsp-%sg.jfr' % ('%g' % gb))
target = int(gb * 1e9)
if not os.path.exists(big) or os.path.getsize(big) < target:
    one = open(os.path.join(java_shop, 'profiles/ap-multi.jfr'), 'rb').read()
    with open(big + '.tmp', 'wb') as out:
        for _ in range(target // len(one) + 1):
            out.write(one)
    os.rename(big + '.tmp', big)
size = os.path.getsize(big)

server = subprocess.Popen([os.path.join(build, 'hotlines'), 'serve'], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
next_id = [0]


def send(msg):
    body = json.dumps(msg).encode()
    server.stdin.write(b'Content-Length: %d\r\n\r\n' % len(body) + body)
    server.stdin.flush()


def receive():
    header = b''
    while not header.endswith(b'\r\n\r\n'):
        header += server.stdout.read(1)
    length = int(header.split(b':')[1].split(b'\r')[0])
    body = server.stdout.read(length)
    return json.loads(body), length


def request(method, params):
    next_id[0] += 1
    start = time.perf_counter()
    send({'jsonrpc': '2.0', 'id': next_id[0], 'method': method, 'params': params})
    while True:
        msg, length = receive()
        if msg.get('id') == next_id[0] and 'method' not in msg:
            if 'error' in msg:
                raise SystemExit('%s failed: %s' % (method, msg['error']))
            return msg['result'], (time.perf_counter() - start) * 1000, length


def notify(method, params):
    send({'jsonrpc': '2.0', 'method': method, 'params': params})


def times(method, params, n=21):
    ms = sorted(request(method, params)[1] for _ in range(n))
    return ms[len(ms) // 2], ms[min(len(ms) - 1, int(len(ms) * 0.99))]


request('initialize', {'rootUri': 'file://' + java_shop, 'capabilities': {}})
notify('initialized', {})
notify('textDocument/didOpen', {'textDocument': {'uri': uri, 'languageId': 'java', 'version': 1,
                                                 'text': open(source).read()}})
loaded, load_ms, _ = request('hotlines/loadProfile', {'path': big})
samples = loaded['samples']
rows = []
rows.append(('load (parse, index, resolve)', '%.0f ms' % load_ms,
             '%.0f MB/s, %.1f M samples' % (size / 1e6 / (load_ms / 1000), samples / 1e6), ''))
doc = {'textDocument': {'uri': uri}}
_, first_ms, _ = request('hotlines/fileAnnotations', doc)
rows.append(('first fileAnnotations after load', '%.2f ms' % first_ms, '', '<= 10 ms'))
p50, p99 = times('hotlines/fileAnnotations', doc)
rows.append(('fileAnnotations (cached)', '%.2f ms' % p50, 'p99 %.2f ms' % p99, ''))
hover = {'textDocument': {'uri': uri}, 'position': {'line': 14, 'character': 10}}
hovered, first_hover, _ = request('textDocument/hover', hover)
assert hovered and '| cpu |' in hovered['contents']['value'], hovered
p50, p99 = times('textDocument/hover', hover)
rows.append(('hover on line 15', '%.2f ms' % p50, 'first %.2f, p99 %.2f ms' % (first_hover, p99),
             '<= 20 ms'))
rng = {'start': {'line': 0, 'character': 0}, 'end': {'line': 100, 'character': 0}}
p50, p99 = times('textDocument/inlayHint', {'textDocument': {'uri': uri}, 'range': rng})
rows.append(('inlayHint', '%.2f ms' % p50, 'p99 %.2f ms' % p99, ''))
p50, p99 = times('textDocument/codeLens', doc)
rows.append(('codeLens', '%.2f ms' % p50, 'p99 %.2f ms' % p99, ''))
_, flame_ms, flame_bytes = request('hotlines/flameGraph', {})
rows.append(('flameGraph (whole profile)', '%.0f ms' % flame_ms,
             '%.2f MB message' % (flame_bytes / 1e6), '< 2 MB'))
p50, p99 = times('workspace/symbol', {'query': 'pricing'}, 5)
rows.append(('workspace/symbol', '%.1f ms' % p50, 'p99 %.1f ms' % p99, ''))
request('workspace/executeCommand', {'command': 'hotlines.selectThreads',
                                     'arguments': [{'threads': ['worker-1']}]})
_, filtered_ms, _ = request('hotlines/fileAnnotations', doc)
rows.append(('fileAnnotations, thread filter (first)', '%.0f ms' % filtered_ms,
             'a pass over the samples', ''))
p50, _ = times('hotlines/fileAnnotations', doc, 5)
rows.append(('fileAnnotations, thread filter (cached)', '%.2f ms' % p50, '', ''))
request('shutdown', None)
notify('exit', None)
server.wait()

print('hotlines LSP latency, %s (%.2f GB, %d samples)' % (os.path.basename(big), size / 1e9, samples))
w = max(len(r[0]) for r in rows)
for name, value, note, goal in rows:
    print('  %-*s  %10s  %-28s %s' % (w, name, value, note, goal))
