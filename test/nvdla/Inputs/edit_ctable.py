"""edit_ctable.py IN OUT KEY REGISTER VALUE: set one CTable register (VALUE is JSON)."""
import json, sys
src, dst, key, reg, value = sys.argv[1:6]
t = json.load(open(src))
t.setdefault(key, {})[reg] = json.loads(value)
with open(dst, "w") as f:
    json.dump(t, f, indent=2)
    f.write("\n")
