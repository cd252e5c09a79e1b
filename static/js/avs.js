// The AVS options form: when the region or the VMware licensing changes, the host list
// marks the SKUs that region has no price for under that licensing ("AV48 — no price in
// West Europe") and disables them, as the page does after Plan. The chosen SKU stays choosable: its plan shows the hosts
// with the cost marked missing. Without the script the list is marked for the region
// of the plan shown.
(function () {
  "use strict";
  var region = document.getElementById("f-region");
  var host = document.getElementById("f-host_sku");
  var vcf = document.getElementById("f-vcf");
  if (!region || !host) return;
  function mark() {
    var chosen = region.options[region.selectedIndex];
    var key = region.value;
    var name = chosen ? chosen.getAttribute("data-name") : "";
    var included = vcf && vcf.value === "included";
    var attr = included ? "data-regions" : "data-regions-byol";
    Array.prototype.forEach.call(host.options, function (o) {
      var regions = (o.getAttribute(attr) || "").split(" ");
      var priced = !key || !name || regions.indexOf(key) >= 0;
      o.textContent = priced ? o.getAttribute("data-label") : o.getAttribute("data-unpriced") + " " + name;
      o.disabled = !priced && !o.selected;
    });
  }
  region.addEventListener("change", mark);
  if (vcf) vcf.addEventListener("change", mark);
})();
