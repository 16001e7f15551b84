#!/usr/bin/env python3
"""Writes the FDO statistics fixtures of sparsecore_fdo_stats_test.cpp.

Standard library only (no NumPy here): `.npy` arrays are written by hand in
format 1.0, and `.npz` files are zips of them, stored as `np.savez` does.
Run from this folder: python3 make_fixtures.py
"""
import os, struct, zipfile


def npy(values, shape, descr="<i8"):
    dims = "%d," % shape[0] if len(shape) == 1 else ", ".join("%d" % d for d in shape)
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (descr, dims)
    total = 10 + len(header) + 1
    header += " " * ((64 - total % 64) % 64) + "\n"
    fmt = {"<i8": "<q", "<i4": "<i", "<f8": "<d"}[descr]
    body = b"".join(struct.pack(fmt, v) for v in values)
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1") + body


def npz(path, arrays, compress=zipfile.ZIP_STORED):
    with zipfile.ZipFile(path, "w", compress) as z:
        for key, (values, shape, *descr) in arrays.items():
            z.writestr(key + ".npy", npy(values, shape, *(descr or ["<i8"])))


def flat(rows):
    return [v for r in rows for v in r]


# jax-tpu-embedding file_fdo_client_test.py, test_load_multiple_files.
os.makedirs("hosts", exist_ok=True)
npz("hosts/fdo_stats_0_10.npz", {
    "t_one_max_ids": ([10, 20, 30, 40], (4,)), "t_two_max_ids": ([50, 60, 70, 80], (4,)),
    "t_one_max_unique_ids": ([1, 2, 3, 4], (4,)), "t_two_max_unique_ids": ([5, 6, 7, 8], (4,)),
    "t_one_required_buffer_size": ([64], (1,)), "t_two_required_buffer_size": ([128], (1,))})
npz("hosts/fdo_stats_1_11.npz", {
    "t_one_max_ids": ([20, 10, 40, 30], (4,)), "t_two_max_ids": ([60, 60, 80, 70], (4,)),
    "t_one_max_unique_ids": ([2, 1, 4, 3], (4,)), "t_two_max_unique_ids": ([6, 5, 8, 7], (4,)),
    "t_one_required_buffer_size": ([128], (1,)), "t_two_required_buffer_size": ([256], (1,))},
    zipfile.ZIP_DEFLATED)
# An older file of process 0: the newest of each process is read.
npz("hosts/fdo_stats_0_9.npz", {"t_one_max_ids": ([999, 999, 999, 999], (4,))})
with open("hosts/notes.txt", "w") as f:
    f.write("not a statistics file\n")

# A history of 6 batches over 8 partitions, two stacked tables, as a
# retain-history client writes it (one row per recorded batch).
ids = [[12, 9, 15, 11, 10, 14, 9, 13], [14, 10, 13, 12, 11, 40, 10, 12], [11, 12, 14, 10, 13, 12, 11, 15],
       [13, 11, 12, 14, 10, 13, 12, 11], [12, 13, 11, 12, 14, 11, 13, 12], [15, 12, 13, 11, 12, 14, 11, 13]]
uniq = [[r_i - 3 for r_i in r] for r in ids]
emb = [[4, 5, 3, 4, 6, 4, 5, 4], [5, 4, 4, 6, 5, 4, 4, 5], [4, 6, 5, 4, 4, 5, 6, 4],
       [6, 4, 4, 5, 4, 6, 4, 5], [5, 5, 4, 4, 6, 4, 5, 4], [4, 4, 6, 5, 4, 5, 4, 6]]
buf = [[96, 88], [120, 96], [96, 104], [104, 96], [96, 96], [104, 104]]
arrays = {
    "user_item_max_ids": (flat(ids), (6, 8)), "user_item_max_unique_ids": (flat(uniq), (6, 8)),
    "user_item_required_buffer_size": (flat(buf), (6, 2)), "user_item_id_drop_counters": ([0, 3, 0, 0, 0, 0], (6,)),
    "ad_max_ids": (flat(emb), (6, 8)), "ad_max_unique_ids": (flat(emb), (6, 8)),
}
os.makedirs("history", exist_ok=True)
npz("history/fdo_stats_0_1700000000000000000.npz", arrays)
with open("history/fdo_stats_0_1700000000000000000.csv", "w", newline="") as f:
    f.write("key,values\r\n")
    for key, (values, shape) in arrays.items():
        cols = shape[-1] if len(shape) > 1 else 1
        rows = [values[i:i + cols] for i in range(0, len(values), cols)] if len(shape) > 1 else [values]
        for r in rows:
            f.write("%s,%s\r\n" % (key, " ".join(map(str, r))))

# Broken files: each must give an error naming the file and the entry or line.
os.makedirs("broken", exist_ok=True)
whole = open("history/fdo_stats_0_1700000000000000000.npz", "rb").read()
open("broken/truncated.npz", "wb").write(whole[: len(whole) // 2])
npz("broken/float_dtype.npz", {"t_max_ids": ([1.5, 2.5], (2,), "<f8")})
npz("broken/unknown_key.npz", {"t_max_ids": ([1, 2], (2,)), "t_histogram": ([3, 4], (2,))})
npz("broken/short_data.npz", {"t_max_ids": ([1, 2], (3,))})
with open("broken/ragged.csv", "w") as f:
    f.write("key,values\nt_max_ids,1 2 3 4\nt_max_ids,1 2 3\n")
with open("broken/not_a_number.csv", "w") as f:
    f.write("key,values\nt_max_ids,1 2 x 4\n")
