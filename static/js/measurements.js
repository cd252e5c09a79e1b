// Measured vs predicted on the planner: upload a benchmark result to the saved scenario,
// list its runs with the reason for any gap, and plot measured against predicted.
(function () {
  "use strict";
  var drop = document.getElementById("m-drop");
  if (!drop) return;
  var id = drop.getAttribute("data-scenario");
  var input = document.getElementById("m-file");
  var status = document.getElementById("m-status");
  var table = document.getElementById("m-table");
  var chart = document.getElementById("m-chart");
  var refit = document.getElementById("m-calibrate");
  var base = "/api/v1/scenarios/" + encodeURIComponent(id) + "/measurements";
  var SVG = "http://www.w3.org/2000/svg";
  var PAGE = 200; // the API's largest page

  var CLASS_WORDS = {
    at_storage_ceiling: "storage ceiling",
    at_client_ceiling: "client ceiling",
    connection_bound: "connection-bound",
    concurrency_bound: "concurrency-bound",
    near_prediction: "near prediction",
    above_prediction: "above prediction",
    unexplained: "unexplained"
  };

  function fmt(x) {
    if (x === null || x === undefined || !isFinite(x)) return "n/a";
    if (Math.abs(x) < 100) return x.toFixed(1);
    return Math.round(x).toLocaleString("en-US");
  }

  function say(text, isError) {
    status.textContent = text;
    status.classList.toggle("m-error", !!isError);
  }

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function svgEl(tag, attrs, text) {
    var e = document.createElementNS(SVG, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // base64url of UTF-8 JSON: the planner's share link format (/plan?s=...).
  function shareLink(scenario) {
    var bytes = new TextEncoder().encode(JSON.stringify(scenario));
    var bin = "";
    for (var i = 0; i < bytes.length; i++) bin += String.fromCharCode(bytes[i]);
    return "/plan?s=" + btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function renderTable(runs) {
    var body = table.tBodies[0];
    body.textContent = "";
    runs.forEach(function (r) {
      var m = r.measurement, c = r.comparison;
      var tr = el("tr", { "data-id": String(r.id) });
      var run = el("th", { scope: "row" });
      run.appendChild(el("span", { "class": "m-label" }, m.label));
      run.appendChild(el("span", { "class": "meta" },
        " " + m.tool + " · " + fmt(m.io_size_kib) + " KiB · " + Math.round(m.read_pct) + "% reads · " +
        m.outstanding + " IOs in flight · rev. " + r.revision));
      tr.appendChild(run);
      tr.appendChild(el("td", { "class": "n" }, fmt(m.mibps)));
      tr.appendChild(el("td", { "class": "n" }, c ? fmt(c.predicted_mibps) : "n/a"));
      tr.appendChild(el("td", { "class": "n" }, c ? Math.round(c.ratio * 100) + "%" : "n/a"));
      var why = el("td", {});
      if (c) {
        why.appendChild(el("span", { "class": "tag m-class m-" + c["class"] }, CLASS_WORDS[c["class"]] || c["class"]));
        why.appendChild(document.createTextNode(" " + c.sentence));
      } else {
        why.textContent = r.comparison_error || "no prediction";
      }
      tr.appendChild(why);
      var actions = el("td", { "class": "actions" });
      var from = el("button", { type: "button", "class": "linkish m-from" }, "New scenario");
      from.title = "Opens the planner with this run's workload (IO size, mix, threads, queue depth, clients)";
      from.addEventListener("click", function () { newScenario(r.id); });
      var del = el("button", { type: "button", "class": "linkish m-del" }, "Remove");
      del.addEventListener("click", function () { removeRun(r.id, m.label); });
      actions.appendChild(from);
      actions.appendChild(document.createTextNode(" "));
      actions.appendChild(del);
      tr.appendChild(actions);
      body.appendChild(tr);
    });
    table.hidden = runs.length === 0;
  }

  // Measured (filled) and predicted (hollow) MiB/s against IO size (log scale).
  function renderChart(runs) {
    chart.textContent = "";
    var pts = runs.filter(function (r) { return r.comparison; });
    if (pts.length === 0) { chart.hidden = true; return; }
    var W = 640, H = 260, L = 64, R = 16, T = 16, B = 44;
    var sizes = pts.map(function (r) { return r.measurement.io_size_kib; });
    var lo = Math.log2(Math.min.apply(null, sizes.concat([4])));
    var hi = Math.log2(Math.max.apply(null, sizes.concat([1024])));
    var top = 0;
    pts.forEach(function (r) { top = Math.max(top, r.measurement.mibps, r.comparison.predicted_mibps); });
    top = top > 0 ? top * 1.1 : 1;
    function x(kib) { return L + (Math.log2(kib) - lo) / Math.max(hi - lo, 1) * (W - L - R); }
    function y(v) { return T + (1 - v / top) * (H - T - B); }
    var svg = svgEl("svg", {
      viewBox: "0 0 " + W + " " + H, width: "100%", role: "img", "class": "m-svg",
      "aria-label": "Measured (filled) and predicted (hollow) MiB/s of " + pts.length + " run(s) against IO size; the table below has the figures"
    });
    svg.appendChild(svgEl("line", { x1: L, y1: H - B, x2: W - R, y2: H - B, "class": "m-axis" }));
    svg.appendChild(svgEl("line", { x1: L, y1: T, x2: L, y2: H - B, "class": "m-axis" }));
    for (var e = Math.ceil(lo); e <= Math.floor(hi); e += 2) {
      var k = Math.pow(2, e);
      svg.appendChild(svgEl("text", { x: x(k), y: H - B + 16, "text-anchor": "middle", "class": "m-tick" },
        k >= 1024 ? (k / 1024) + " MiB" : k + " KiB"));
    }
    for (var i = 0; i <= 4; i++) {
      var v = top * i / 4;
      svg.appendChild(svgEl("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", "class": "m-tick" }, fmt(v)));
    }
    svg.appendChild(svgEl("text", { x: (L + W - R) / 2, y: H - 6, "text-anchor": "middle", "class": "m-axis-label" }, "IO size"));
    svg.appendChild(svgEl("text", { x: 14, y: (T + H - B) / 2, "text-anchor": "middle", "class": "m-axis-label",
      transform: "rotate(-90 14 " + (T + H - B) / 2 + ")" }, "MiB/s"));
    pts.forEach(function (r) {
      var m = r.measurement, c = r.comparison, cx = x(m.io_size_kib);
      svg.appendChild(svgEl("line", { x1: cx, y1: y(c.predicted_mibps), x2: cx, y2: y(m.mibps), "class": "m-gap" }));
      var p = svgEl("circle", { cx: cx, cy: y(c.predicted_mibps), r: 6, "class": "m-pred" });
      p.appendChild(svgEl("title", {}, m.label + ": predicted " + fmt(c.predicted_mibps) + " MiB/s"));
      svg.appendChild(p);
      var q = svgEl("circle", { cx: cx, cy: y(m.mibps), r: 5, "class": "measured-point", "data-id": String(r.id) });
      q.appendChild(svgEl("title", {}, m.label + ": measured " + fmt(m.mibps) + " MiB/s"));
      svg.appendChild(q);
    });
    chart.appendChild(svg);
    var legend = el("p", { "class": "meta m-legend" }, "● measured   ○ predicted at the same IO size, mix and IOs in flight");
    chart.appendChild(legend);
    chart.hidden = false;
  }

  function render(runs) {
    renderTable(runs);
    renderChart(runs);
    refit.hidden = runs.length === 0;
  }

  // Refits the parameters that govern this scenario to its runs, then has the planner
  // recalculate its results with them.
  function calibrate() {
    say("Refitting the model to these runs…");
    refit.disabled = true;
    fetch("/api/v1/scenarios/" + encodeURIComponent(id) + "/calibrate", {
      method: "POST", headers: { Accept: "application/json" }, credentials: "same-origin"
    }).then(function (res) {
      if (!res.ok) return errorText(res).then(function (t) { throw new Error(t); });
      return res.json();
    }).then(function (body) {
      // The table and chart predict with the refitted model from now on, as the
      // results do: reload both, then have the planner recalculate.
      document.dispatchEvent(new CustomEvent("volplan:recalc"));
      return load().then(function () { say(body.statement); });
    }, function (e) { say("Cannot refit: " + e.message, true); })
      .then(function () { refit.disabled = false; });
  }

  // The API's message, quoting as prose does (the API quotes between backticks).
  function errorText(res) {
    return res.json().then(function (b) {
      return b.error ? String(b.error).replace(/`([^`]*)`/g, "\u201c$1\u201d") : "HTTP " + res.status;
    }, function () { return "HTTP " + res.status; });
  }

  // One page of the runs (the API pages them, oldest first) and how many there are.
  function page(offset) {
    return fetch(base + "?limit=" + PAGE + "&offset=" + offset, { headers: { Accept: "application/json" } }).then(function (res) {
      if (!res.ok) return errorText(res).then(function (t) { throw new Error(t); });
      var total = Number(res.headers.get("X-Total-Count")) || 0;
      return res.json().then(function (runs) { return { runs: runs, total: total }; });
    });
  }

  // The newest runs: the last page when there are more than one page holds.
  function load() {
    return page(0).then(function (p) {
      return p.total > PAGE ? page(p.total - PAGE) : p;
    }).then(function (p) {
      render(p.runs);
      if (p.total > p.runs.length) say("Showing the newest " + p.runs.length + " of " + p.total + " runs.");
    }, function (e) { say("Cannot load the measurements: " + e.message, true); });
  }

  // One result file as it is; the per-client files of one test together, added up
  // into one run by the server ({"files": [...]}), as `volplan import` adds them.
  function upload(list) {
    var files = Array.prototype.slice.call(list || []);
    if (!files.length) return;
    var file = { name: files.map(function (f) { return f.name; }).join(", ") };
    say("Reading " + file.name + "…");
    var body = files.length === 1
      ? Promise.resolve({ body: files[0], type: "application/octet-stream" })
      : Promise.all(files.map(function (f) { return f.text(); })).then(function (texts) {
        return { body: JSON.stringify({ files: texts }), type: "application/json" };
      });
    body.then(function (b) {
      return fetch(base, { method: "POST", body: b.body, headers: { "Content-Type": b.type } });
    })
      .then(function (res) {
        if (!res.ok) return errorText(res).then(function (t) { throw new Error(t); });
        return res.json();
      })
      .then(function (body) {
        var n = body.measurements.length;
        var warn = body.warnings.length ? " Notes: " + body.warnings.join(" ") : "";
        say(file.name + ": " + n + " run(s) added." + warn);
        return load();
      }, function (e) { say(file.name + ": " + e.message, true); })
      .then(function () { input.value = ""; });
  }

  function removeRun(mid, label) {
    fetch(base + "/" + encodeURIComponent(mid), { method: "DELETE" }).then(function (res) {
      if (!res.ok && res.status !== 404) return errorText(res).then(function (t) { throw new Error(t); });
      say("Removed " + label + ".");
      return load();
    }).catch(function (e) { say(e.message, true); });
  }

  function newScenario(mid) {
    fetch(base + "/" + encodeURIComponent(mid) + "/scenario").then(function (res) {
      if (!res.ok) return errorText(res).then(function (t) { throw new Error(t); });
      return res.json();
    }).then(function (s) { window.location.href = shareLink(s); }, function (e) { say(e.message, true); });
  }

  input.addEventListener("change", function () { upload(input.files); });
  refit.addEventListener("click", calibrate);
  ["dragenter", "dragover"].forEach(function (t) {
    drop.addEventListener(t, function (e) { e.preventDefault(); drop.classList.add("m-over"); });
  });
  ["dragleave", "drop"].forEach(function (t) {
    drop.addEventListener(t, function (e) { e.preventDefault(); drop.classList.remove("m-over"); });
  });
  drop.addEventListener("drop", function (e) {
    upload(e.dataTransfer && e.dataTransfer.files);
  });
  load();
})();
