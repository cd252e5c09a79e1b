// The AVS options form: when the region changes, the host list marks the SKUs that
// region has no price for ("AV48 — no price in West Europe") and disables them, as
// the page does after Plan. The chosen SKU stays choosable: its plan shows the hosts
// with the cost marked missing. Without the script the list is marked for the region
// of the plan shown.
(function () {
  "use strict";
  var region = document.getElementById("f-region");
  var host = document.getElementById("f-host_sku");
  if (!region || !host) return;
  region.addEventListener("change", function () {
    var chosen = region.options[region.selectedIndex];
    var key = region.value;
    var name = chosen ? chosen.getAttribute("data-name") : "";
    Array.prototype.forEach.call(host.options, function (o) {
      var regions = (o.getAttribute("data-regions") || "").split(" ");
      var priced = !key || !name || regions.indexOf(key) >= 0;
      o.textContent = priced ? o.getAttribute("data-label") : o.getAttribute("data-unpriced") + " " + name;
      o.disabled = !priced && !o.selected;
    });
  });
})();
