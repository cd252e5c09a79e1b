#!/usr/bin/env python3
"""Builds src/engine/catalog/price_book.json from the public price records.

Usage: python3 tools/price_book.py [SHARED_PRICES_DIR]  (default ../shared/design/prices)

Reads prices.json (ANF: the Azure Retail Prices API snapshot, source A of NOTES.md,
preferred; the ANF calculators' tables only where the snapshot has no row; Azure Files
pay-as-you-go and provisioned v1 in westus; GCNV's committed-use discounts),
prices-provisional.json (Azure Files provisioned v2 SSD in eastus2, GCNV Flex custom
performance with commitments, replication and backup: secondary sources, so every row
of it is marked provisional), avs-hosts.json (AVS host-hours per region) and the public
price excerpts checked in under tools/data/public-prices/ (Azure Files in eastus and
eastus2, GCNV Standard, Premium and Extreme by region: secondary sources, provisional;
sources.json names each one's repository, path, commit and date), and writes
one compact price book that the binary compiles in. Deterministic: the same input gives
the same file.
"""
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared/design/prices"
OUT = ROOT / "src/engine/catalog/price_book.json"
# The snapshot's own ANF prices by region and level, for the test that the book holds
# every one of them (the shared records are not available where the tests run).
FIXTURE = ROOT / "tests/fixtures/prices/anf-snapshot.json"
CRR = ("crr-10min", "crr-hourly", "crr-daily")

RETAIL = "docs/calc/beta/pricing-data.json"
ITEMS = {
    # price-book key: (prices.json level, unit of the monthly figure)
    "standard": "standard",
    "premium": "premium",
    "ultra": "ultra",
    "flexible_capacity": "flexible-capacity",
    "flexible_throughput": "flexible-throughput",
    "cool_capacity": "cool-access-capacity",
    "cool_transfer": "cool-access-data-transfer",
    "backup": "backup",
}
HOURS = 730
# Region display names the book's own records lack (the Retail API's `location` is a
# billing label, "EU West"): Azure names from the ANF region map compiled beside the
# book and the AVS estimator, then these; GCP region names from Google Cloud's
# locations page (cloud.google.com/about/locations).
REGION_MAP = ROOT / "src/engine/catalog/regions.json"
EXTRA_NAMES = {
    "swedensouth": "Sweden South",
    "westcentralus": "West Central US",
    "francesouth": "France South",
    "asia-east1": "Taiwan",
    "asia-northeast1": "Tokyo",
    "asia-south1": "Mumbai",
    "asia-southeast1": "Singapore",
    "australia-southeast1": "Sydney",
    "europe-north1": "Finland",
    "europe-west1": "Belgium",
    "europe-west2": "London",
    "europe-west3": "Frankfurt",
    "europe-west4": "Netherlands",
    "europe-west6": "Zurich",
    "europe-west8": "Milan",
    "europe-west9": "Paris",
    "northamerica-northeast1": "Montréal",
    "southamerica-east1": "São Paulo",
    "us-central1": "Iowa",
    "us-east1": "South Carolina",
    "us-east4": "Northern Virginia",
    "us-west1": "Oregon",
    "us-west2": "Los Angeles",
    "us-west3": "Salt Lake City",
    "us-west4": "Las Vegas",
    "europe-southwest1": "Madrid",
    "northamerica-northeast2": "Toronto",
}
# Azure Files records (level, meter) to book items: `<level>[_<redundancy>][_<meter>]`,
# LRS and capacity written without a suffix (the engine prices LRS capacity).
FILES_LEVELS = {
    "transaction-optimized": "hdd_payg",
    "hot": "hdd_payg_hot",
    "cool": "hdd_payg_cool",
    "premium-provisioned-v1": "ssd_v1",
    "provisioned-v2 SSD": "ssd_v2",
    "provisioned-v2 HDD": "hdd_v2",
    "pay-as-you-go cool": "hdd_payg_cool",
}
FILES_METERS = [
    ("data stored", ""),
    ("provisioned storage", ""),
    ("snapshots", "_snapshots"),
    ("metadata", "_metadata"),
    ("read operations", "_read"),
    ("write operations", "_write"),
    ("list operations", "_list"),
    ("other operations", "_other"),
    ("data retrieval", "_retrieval"),
    ("provisioned iops", "_iops"),
    ("provisioned throughput", "_throughput"),
    # "Premium LRS Provisioned": provisioned v1 capacity (after the v2 meters above).
    ("provisioned", ""),
]
# GCNV records (level, meter) to items; a commitment adds `_1y` / `_3y`.
GCNV_ITEMS = {
    ("standard", "Standard storage pool capacity"): "standard",
    ("standard", "capacity"): "standard",
    ("premium", "capacity"): "premium",
    ("extreme", "capacity"): "extreme",
    ("flex-unified custom-performance", "capacity"): "flex",
    ("flex-unified custom-performance", "throughput"): "flex_throughput",
    ("flex-unified custom-performance", "IOPS"): "flex_iops",
    ("flex-unified limited-performance-region", "capacity"): "flex",
    ("replication crr-10min", "replication data transfer"): "crr_10min",
    ("replication crr-hourly", "replication data transfer"): "crr_hourly",
    ("replication crr-daily", "replication data transfer"): "crr_daily",
    ("backup", "backup usage (per GiB of source volume)"): "backup",
    ("backup", "backup storage"): "backup_storage",
}
# The public price excerpts (tools/data/public-prices/): each source's table, its
# records read from the excerpt as it was copied.
PUBLIC = ROOT / "tools/data/public-prices"
# Azure Files skuName tiers of the Retail Prices API to the levels of prices.json.
FILES_TIERS = {"Hot": "hot", "Cool": "cool", "Standard": "transaction-optimized", "Premium": "premium-provisioned-v1"}


def public_records():
    """Price records (the prices.json schema) of the excerpts under tools/data/public-prices/."""
    records = []
    for src in json.loads((PUBLIC / "sources.json").read_text()):
        source = {"kind": "github", "repo": src["repository"], "path": src["path"],
                  "commit": src["commit"], "commit_date": src["date"]}
        text = (PUBLIC / src["file"]).read_text()
        base = {"currency": "USD", "type": "consumption", "valid_as_of": src["date"], "source": source}
        if src["service"] == "azure_files":
            regions = None
            for line in text.splitlines():
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                if cells[0] == "skuName":
                    regions = [c.removeprefix("retailPrice ").strip() for c in cells[3:]]
                    continue
                if regions is None or len(cells) != 3 + len(regions) or not cells[0].split()[0] in FILES_TIERS:
                    continue
                tier, redundancy = cells[0].split()
                for region, price in zip(regions, cells[3:]):
                    records.append(dict(base, product="azure-files", level=f"{FILES_TIERS[tier]} {redundancy}",
                                        meter=cells[1], unit="GiB-month", region=region, price=float(price),
                                        notes="Azure Retail Prices API item as a public capture transcribes it"))
        else:
            for region, row in json.loads(text)["storage"]["gcve"].items():
                for level, price in row["gcnv"].items():
                    records.append(dict(base, product="gcnv", level=level, meter="capacity", unit="GiB-hour",
                                        region=region, price=price,
                                        notes="on-demand list price of Google's pricing page as a public sizing tool reads it"))
    return records


# The region a record without one is filed under: the table it follows (NOTES.md).
GCNV_EXAMPLE_REGION = "us-central1"
# AVS hosts without VMware Cloud Foundation (`VCF BYOL`), USD per host-hour, as a public
# write-up quotes the Azure VMware Solution pricing page (no Retail Prices API snapshot
# of these meters is among the public records; a Retail Prices import replaces them).
AVS_BYOL = {"eastus": {"name": "East US", "AV36P": {"payg_hour": 8.2, "ri_1y_hour": 5.53, "ri_3y_hour": 3.57}, "AV48": {"payg_hour": 10.93, "ri_1y_hour": 7.43, "ri_3y_hour": 4.7926}, "AV52": {"payg_hour": 11.43, "ri_1y_hour": 7.6, "ri_3y_hour": 4.79}, "AV64": {"payg_hour": 11.43, "ri_1y_hour": 7.6, "ri_3y_hour": 4.79}}}
AVS_BYOL_DATE = '2025-11-01'
AVS_BYOL_SOURCE = "Azure VMware Solution pricing page (VCF BYOL hosts, USD per host-hour: pay as you go, 1-year and 3-year reserved) as quoted by a public write-up on GitHub (its repository is not named; undated, after 2025-11-01); East US; AV48 1-year is the write-up's approximation (32 % off); provisional until a Retail Prices import replaces it"

# The AVS TCO estimator's default reserved-host discounts (avs-hosts.json,
# reserved_pricing_note: 1-year 43 %, 3-year 50 %): the derived reserved rates of a host
# whose pay-as-you-go price is imported later are computed with the same discounts.
AVS_RESERVED_DISCOUNT_PCT = {"1y": 43, "3y": 50}


def monthly(r):
    """USD per unit-month (per GiB, per MiB/s) at 730 hours, or the one-off per-GiB price."""
    if r["unit"].endswith("-hour"):
        return round(r["price"] * HOURS, 6)
    return r["price"]


def date_of(valid_as_of):
    """The YYYY-MM-DD a record is valid as of ("2026-05-18 (report date; ...)")."""
    head = (valid_as_of or "")[:10]
    return head if len(head) == 10 and head[4] == "-" and head[7] == "-" else None


def source_text(r):
    """Where a record comes from, in one line: the page, or repository, path and commit."""
    src = r["source"]
    where = src.get("url") or " ".join(x for x in (src.get("repo"), src.get("path")) if x)
    if src.get("commit"):
        where += f" (commit {src['commit'][:7]})"
    if not where and src.get("kind") == "github-index":
        where = "a public cost estimate on GitHub quoting Azure Retail Prices API rates (its repository is not named)"
    return where


def region_names(records, hosts):
    names = dict(EXTRA_NAMES)
    for h in hosts["hosts"]:
        for region, p in (h.get("prices_usd_by_region") or {}).items():
            if p.get("region_display"):
                names[region] = p["region_display"].replace("SouthEast", "Southeast")
    for key, r in json.loads(REGION_MAP.read_text())["regions"].items():
        names[key] = r["name"]
    return dict(sorted(names.items()))


def files_item(r):
    level = r["level"]
    for prefix, key in sorted(FILES_LEVELS.items(), key=lambda kv: -len(kv[0])):
        if level.startswith(prefix):
            redundancy = level[len(prefix):].strip().lower()
            break
    else:
        return None
    meter = r["meter"].lower()
    suffix = next((sfx for m, sfx in FILES_METERS if m in meter), None)
    if suffix is None:
        return None
    return key + ("" if redundancy in ("", "lrs") else "_" + redundancy) + suffix


def other_services(records, provisional):
    """Azure Files and GCNV rows: region -> item -> monthly price, and each row's
    date, source and whether it is provisional."""
    tables = {"azure_files": {}, "gcnv": {}}
    sources = []
    for r, is_provisional in [(r, False) for r in records] + [(r, True) for r in provisional]:
        if r.get("price") in (None, 0) or r.get("currency") != "USD":
            continue
        if r["product"] == "azure-files":
            service, item = "azure_files", files_item(r)
        elif r["product"] == "gcnv":
            service, item = "gcnv", GCNV_ITEMS.get((r["level"], r["meter"]))
        else:
            continue
        if item is None:
            continue
        term = r["type"].removeprefix("reservation-")
        if term in ("1y", "3y"):
            item += "_" + term
        elif r["type"] != "consumption":
            continue
        region = r.get("region")
        if region is None and "limited-performance" in r["level"]:
            # "applies to limited-performance regions (asia-northeast1, ...)": filed
            # under each region the note names.
            listed = re.search(r"limited-performance regions \(([^)]*)\)", r.get("notes", ""))
            regions = re.findall(r"[a-z]+-[a-z]+[0-9]", listed.group(1)) if listed else []
        elif region is None and service == "gcnv" and is_provisional:
            regions = [GCNV_EXAMPLE_REGION]
        elif region is None:
            # GCNV Standard's page row names no region: the catalog files it under its
            # reference region (services.json), with the page's date.
            continue
        else:
            regions = [region]
        price = monthly(r) if r["unit"] != "GiB" else r["price"]
        # The first clause of a provisional record's note says what the price covers.
        note = r.get("notes", "").split(";")[0]
        for reg in regions:
            tables[service].setdefault(reg, {})[item] = price
            sources.append({
                "service": service, "region": reg, "item": item,
                "as_of": date_of(r["valid_as_of"]) or "",
                "source": source_text(r) + (f"; {note}" if note and is_provisional else ""),
                "provisional": is_provisional or bool(r.get("derived")),
            })
    for t in tables.values():
        for reg in t:
            t[reg] = dict(sorted(t[reg].items()))
    # A later record of the same row (the provisional file's) is the one in the table.
    sources = list({(x["service"], x["region"], x["item"]): x for x in sources}.values())
    sources.sort(key=lambda x: (x["service"], x["region"], x["item"]))
    return {k: dict(sorted(v.items())) for k, v in tables.items()}, sources


def gcnv_cud(records):
    """GCNV's spend-based committed-use discounts, % by term (every level and region)."""
    return {
        r["type"].removeprefix("reservation-"): r["discount_pct"]
        for r in records
        if r["product"] == "gcnv" and r.get("discount_pct") is not None
    }


def main():
    records = json.loads((SRC / "prices.json").read_text())
    anf = {}
    dates = set()
    for r in records:
        if r["product"] != "anf" or r["type"] != "consumption" or not r.get("region"):
            continue
        key = next((k for k, lvl in ITEMS.items() if lvl == r["level"]), None)
        if key is None or r.get("price") in (None, 0):
            continue
        region = anf.setdefault(r["region"], {"name": r.get("region_display") or r["region"]})
        retail = r["source"].get("path") == RETAIL
        have = region.get(key)
        # The Retail API snapshot wins over the calculators' tables.
        if have is None or (retail and not have[1]):
            region[key] = (monthly(r), retail)
            if retail:
                dates.add(r["valid_as_of"])
    for region in anf.values():
        for k, v in list(region.items()):
            if k != "name":
                region[k] = v[0]
    # Cross-region replication, per GiB replicated from the source region: the region's
    # most common rate over its destination pairs (the Retail API snapshot).
    crr = {}
    for r in records:
        if r["product"] == "anf" and r["level"].startswith("crr-") and r.get("region") and r["source"].get("path") == RETAIL:
            crr.setdefault((r["region"], r["level"]), []).append(r["price"])
    for (region, level), prices in crr.items():
        if region in anf:
            anf[region][level.replace("-", "_")] = max(set(prices), key=lambda x: (prices.count(x), -x))
    anf = {k: v for k, v in anf.items() if all(l in v for l in ("standard", "premium", "ultra"))}
    reservations = sorted(
        (
            {
                "level": r["level"],
                "term": r["type"].removeprefix("reservation-"),
                "min_tib": 1024 if "1PiB" in r["meter"] else 100,
                "discount_pct": r["discount_pct"],
            }
            for r in records
            if r["product"] == "anf" and r["type"].startswith("reservation") and r["level"] in ("standard", "premium", "ultra")
        ),
        key=lambda x: (x["level"], x["term"], x["min_tib"]),
    )
    hosts = json.loads((SRC / "avs-hosts.json").read_text())
    names = region_names(records, hosts)
    for key, region in anf.items():
        region["name"] = names.get(key, region["name"])
    provisional = json.loads((SRC / "prices-provisional.json").read_text())
    others, row_sources = other_services(records, provisional + public_records())
    avs = {}
    for h in hosts["hosts"]:
        for region, p in (h.get("prices_usd_by_region") or {}).items():
            row = avs.setdefault(region, {"name": names.get(region) or p.get("region_display") or region})
            row[h["sku"]] = {"payg_hour": p["payg_hour"], "ri_1y_hour": p.get("ri_1y_hour_calc_default"),
                             "ri_3y_hour": p.get("ri_3y_hour_calc_default")}
    book = {
        "id": "anf-retail-" + max(dates),
        "date": max(dates),
        "source": "Azure Retail Prices API snapshot in Azure/azure-netapp-files docs/calc/beta/pricing-data.json (commit 5bd1556, 2026-01-29); reserved-capacity discounts from docs/effective-calc/index.js; AVS hosts from docs/avs-calc/index.js (2025-06-04; reserved rates are the estimator's default discounts)",
        "hours_per_month": HOURS,
        "reference_region": {"anf": "eastus", "azure_files": "swedencentral", "gcnv": "us-central1"},
        "anf": dict(sorted(anf.items())),
        "anf_reservations": reservations,
        "avs": dict(sorted(avs.items())),
        "avs_date": hosts["prices_valid_as_of"][:10],
        "avs_source": "AVS TCO estimator, Azure/azure-netapp-files docs/avs-calc/index.js (commit 1c6dbe0, 2025-06-04), pay-as-you-go per host-hour",
        "avs_reserved_discount_pct": AVS_RESERVED_DISCOUNT_PCT,
        "avs_byol": AVS_BYOL,
        "avs_byol_date": AVS_BYOL_DATE,
        "avs_byol_source": AVS_BYOL_SOURCE,
        "azure_files": others["azure_files"],
        "gcnv": others["gcnv"],
        "gcnv_commitment_discount_pct": gcnv_cud(records),
        "row_sources": row_sources,
        "region_names": names,
    }
    OUT.write_text(json.dumps(book, indent=1, sort_keys=False) + "\n")
    write_fixture(records)
    print(f"{OUT.relative_to(ROOT)}: {len(anf)} ANF regions, {len(avs)} AVS regions, {len(reservations)} reservation bands, "
          f"{len(row_sources)} Azure Files and GCNV rows")


def write_fixture(records):
    """The Retail API snapshot's ANF rows, copied: for each region and level the book
    prices, the distinct monthly prices the snapshot lists (replication: one per
    destination pair meter and the region's generic meter)."""
    rows = {}
    for r in records:
        if r["product"] != "anf" or r["type"] != "consumption" or not r.get("region"):
            continue
        if r["source"].get("path") != RETAIL or r.get("price") in (None, 0):
            continue
        key = next((k for k, lvl in ITEMS.items() if lvl == r["level"]), None)
        if key is None and r["level"] in CRR:
            key = r["level"].replace("-", "_")
        if key is not None:
            rows.setdefault((r["region"], key), set()).add(monthly(r))
    fixture = {
        "source": f"prices.json records of {RETAIL} (commit 5bd1556, 2026-01-29), monthly at {HOURS} h",
        "rows": [{"region": reg, "level": key, "prices": sorted(p)} for (reg, key), p in sorted(rows.items())],
    }
    lines = ",\n".join("  " + json.dumps(row) for row in fixture["rows"])
    FIXTURE.write_text('{"source": ' + json.dumps(fixture["source"]) + ',\n "rows": [\n' + lines + "\n ]\n}\n")
    print(f"{FIXTURE.relative_to(ROOT)}: {len(rows)} region-level rows")


if __name__ == "__main__":
    main()
