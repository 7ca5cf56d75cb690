"""check_package.py DIR: checks that an NNIE package is self-contained.

Every path the .cfg names ([prototxt_file], [caffemodel_file], [image_list],
[mean_file] unless null) and every image_list.txt entry must be a relative
path to a file inside DIR. Prints one line per list entry: the entry and,
for a PNG, its width x height; then "ok: N entries". Exits 1 naming the
first problem.
"""
import os
import struct
import sys

pkg = sys.argv[1]
cfgs = [f for f in os.listdir(pkg) if f.endswith(".cfg")]
if len(cfgs) != 1:
    sys.exit(f"error: {pkg}: expected one .cfg, found {cfgs}")
keys = {}
for line in open(os.path.join(pkg, cfgs[0])):
    key, _, value = line.strip().partition("] ")
    keys[key.lstrip("[")] = value


def inside(path, what):
    full = os.path.realpath(os.path.join(pkg, path))
    root = os.path.realpath(pkg)
    if os.path.isabs(path) or not full.startswith(root + os.sep) or not os.path.isfile(full):
        sys.exit(f"error: {what} '{path}' is not a file inside the package")
    return full


for key in ["prototxt_file", "caffemodel_file", "image_list", "mean_file"]:
    if keys.get(key, "null") != "null":
        inside(keys[key], f"[{key}]")
entries = [l.rstrip("\n") for l in open(inside(keys["image_list"], "[image_list]"))]
for e in entries:
    data = open(inside(e, "image_list.txt entry"), "rb").read()
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        w, h = struct.unpack(">II", data[16:24])
        print(f"{e}: {w}x{h}")
    else:
        print(f"{e}: {len(data)} bytes")
print(f"ok: {len(entries)} entries")
