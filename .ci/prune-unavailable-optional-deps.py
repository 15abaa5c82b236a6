# npm records optional platform packages that this workplace's registry does not serve (biome and
# oxc-parser binaries for other platforms) as dependencies without lock entries, and `npm ci` then
# refuses the lock. Run `python3 .ci/prune-unavailable-optional-deps.py package-lock.json` after any
# `npm install`: it drops optional dependencies that have no entry in the lock.
import json, sys
path = sys.argv[1]
d = json.load(open(path))
pk = d['packages']
dropped = []
for key, val in pk.items():
    opt = val.get('optionalDependencies')
    if not opt: continue
    base = key[: key.rfind('node_modules/')] if 'node_modules/' in key else ''
    for name in list(opt):
        # resolution walks up: the package's own node_modules, then its ancestors'
        candidates = [f"{key}/node_modules/{name}"]
        b = base
        while True:
            candidates.append(f"{b}node_modules/{name}")
            if not b: break
            b = b[: b.rstrip('/').rfind('node_modules/')] if 'node_modules/' in b.rstrip('/') else ''
        if not any(c in pk for c in candidates):
            del opt[name]; dropped.append(name)
json.dump(d, open(path, 'w'), indent=2); open(path, 'a').write('\n')
print('dropped', len(dropped), sorted(set(dropped))[:5])
