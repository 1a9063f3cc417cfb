#!/usr/bin/env python3
"""Issue 23's import files, made from an export of the seeded bench catalog (realistic names,
part numbers, fitment and used-part columns), written to OUTDIR:

  new.csv       every exported row as a new product (SKU `IMP…`), Hindi in one name in seven,
                prices written three ways in turn: `125000`, `1,25,000.00`, `₹1,25,000`
  prices10.csv  new.csv with one row in ten at another price (the "10 % of prices changed" file)
  plus1.csv     new.csv with every price one rupee higher (with new.csv, an apply that changes
                every row, for the storefront-during-an-import regime)

  python3 bench/import-files.py EXPORT.csv OUTDIR [ROWS]

The `photos` cells are emptied: the exported names are the store's own, not a zip's.
"""
import csv
import itertools
import os
import sys
from decimal import Decimal

HINDI = ["ब्रेक डिस्क", "तेल फ़िल्टर", "हेडलैंप", "सस्पेंशन आर्म", "रेडिएटर", "क्लच प्लेट", "एयर फ़िल्टर"]


def grouped(rupees: int) -> str:
    """Indian digit grouping: 1,25,000."""
    text = str(rupees)
    if len(text) <= 3:
        return text
    head, tail = text[:-3], text[-3:]
    groups = []
    while len(head) > 2:
        groups.insert(0, head[-2:])
        head = head[:-2]
    if head:
        groups.insert(0, head)
    return ",".join(groups) + "," + tail


def written(paise: int, way: int) -> str:
    rupees, rest = divmod(paise, 100)
    if way == 0:
        return str(rupees) if rest == 0 else f"{rupees}.{rest:02d}"
    if way == 1:
        return f"{grouped(rupees)}.{rest:02d}"
    return "₹" + grouped(rupees) + ("" if rest == 0 else f".{rest:02d}")


def main() -> None:
    source, outdir = sys.argv[1], sys.argv[2]
    limit = int(sys.argv[3]) if len(sys.argv) > 3 else None
    os.makedirs(outdir, exist_ok=True)
    with open(source, newline="", encoding="utf-8-sig") as f:
        reader = csv.reader(f)
        header = next(reader)
        rows = list(itertools.islice(reader, limit))
    col = {name: i for i, name in enumerate(header)}
    sku, name, price = col["sku"], col["name"], col["price"]
    photos = col.get("photos")

    def rows_of(change) -> list:
        out = []
        for n, row in enumerate(rows):
            row = list(row)
            row[sku] = f"IMP{n:06d}"
            if n % 7 == 3:
                row[name] = f"{row[name]} – {HINDI[n % len(HINDI)]}"[:200]
            if photos is not None:
                row[photos] = ""
            paise = int(Decimal(row[price].replace(",", "").replace("₹", "")) * 100)
            row[price] = written(change(n, paise), n % 3)
            out.append(row)
        return out

    files = {
        "new.csv": lambda n, p: p,
        "prices10.csv": lambda n, p: p + 10_000 if n % 10 == 5 else p,
        "plus1.csv": lambda n, p: p + 100,
    }
    for file, change in files.items():
        with open(os.path.join(outdir, file), "w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f, lineterminator="\r\n")
            writer.writerow(header)
            writer.writerows(rows_of(change))
    print(f"{len(rows)} rows each: {', '.join(files)} in {outdir}")


if __name__ == "__main__":
    main()
