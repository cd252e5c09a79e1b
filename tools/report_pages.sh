#!/bin/sh
# Regenerates docs/report-pages/: every page of the customer edition of the four example
# reports (a scenario's sizing, the same with scenarios compared and volume layouts, an
# AVS plan and an estate) as PNG, from the PDFs `cargo run --example report_pages`
# writes. Needs poppler-utils (pdftoppm) and ImageMagick (to shrink the palette).
set -eu
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cargo run --quiet --example report_pages -- "$out"
mkdir -p docs/report-pages
rm -f docs/report-pages/*.png
for report in scenario compare avs estate; do
    pdftoppm -r 60 -png "$out/$report.pdf" "docs/report-pages/$report"
done
for page in docs/report-pages/*.png; do
    convert "$page" +dither -colors 64 -strip "$page"
done
ls docs/report-pages
