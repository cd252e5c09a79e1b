// Planner: show only the inputs that apply, and recalculate as you type.
//
// The form is posted as it is (urlencoded) to /scenarios/results; the server parses
// it exactly as it does without JavaScript and answers the rendered results column
// plus a message per invalid input and a warning per input the evaluation warns about.
// No rendering logic lives here.
(function () {
  "use strict";

  var form = document.getElementById("planner");
  if (!form) return;
  document.documentElement.classList.add("js");

  var results = document.getElementById("results");
  var status = document.getElementById("plan-status");
  var share = document.getElementById("share-link");
  var copyShare = document.getElementById("copy-share");
  var endpoint = form.getAttribute("data-results");

  // After a save, restore, import or visibility change the confirmation takes the
  // focus, so a keyboard or screen-reader user hears what happened and goes on from it.
  if (status && /[?&](saved|restored|imported|visibility)=/.test(location.search)) {
    status.setAttribute("tabindex", "-1");
    status.focus();
  }

  // ---- Which inputs apply -------------------------------------------------

  function val(name) {
    var el = form.elements.namedItem(name);
    if (!el) return "";
    if (el.type === "checkbox") return el.checked ? "on" : "";
    return el.value;
  }

  function state() {
    var service = val("storage.service");
    var protocol = val("clients.protocol");
    var anf = service === "anf";
    var nfs = protocol !== "smb3";
    // AVS datastores, cool access and breakthrough mode are ANF features: a box left
    // ticked under another service does not count (and is not sent, see DROP).
    var avs = anf && val("clients.avs") === "on";
    return {
      service: service,
      level: val("storage.level"),
      qos: val("storage.qos"),
      protocol: protocol,
      multichannel: val("clients.smb_multichannel") === "on",
      anf: anf,
      nfs: nfs,
      avs: avs,
      dnfs: nfs && !avs && val("clients.nfs_client") === "dnfs",
      cool: anf && val("storage.cool_access") === "on",
    };
  }

  function provisionedV2(s) {
    return s.service === "azure_files" && (s.level === "ssd_v2" || s.level === "hdd_v2");
  }

  var RULES = {
    anf: function (s) { return s.anf; },
    pool: function (s) { return s.service === "anf" || s.service === "gcnv"; },
    assigned: function (s) {
      return (s.service === "anf" && (s.qos === "manual" || s.level === "flexible")) ||
        provisionedV2(s) || (s.service === "gcnv" && s.level === "flex");
    },
    piops: function (s) { return provisionedV2(s) || (s.service === "gcnv" && s.level === "flex"); },
    // Large volumes: ANF and NetApp Volumes; Azure Files has shares of one kind.
    "volume-kind": function (s) { return s.service === "anf" || s.service === "gcnv"; },
    // The volume back end (and so its cache) is modelled for ANF and NetApp Volumes.
    "back-end": function (s) { return s.service === "anf" || s.service === "gcnv"; },
    // Burst credits: Azure Files provisioned shares (not pay-as-you-go).
    burst: function (s) { return s.service === "azure_files" && s.level !== "hdd_payg"; },
    "cool-option": function (s) { return s.anf; },
    cool: function (s) { return s.cool; },
    // Azure Files NFS shares speak NFSv4.1 only.
    "nfsv3-option": function (s) { return s.service !== "azure_files"; },
    // Direct NFS runs in a database server against its own volumes, not on AVS.
    "nfs-client": function (s) { return s.nfs && !s.avs; },
    nconnect: function (s) { return s.nfs && !s.dnfs; },
    // Kerberos: NFSv4.1 on ANF and NetApp Volumes (not Azure Files, not SMB).
    "nfs-sec": function (s) {
      return s.protocol === "nfsv4.1" && (s.service === "anf" || s.service === "gcnv");
    },
    smb: function (s) { return s.protocol === "smb3"; },
    "smb-sec": function (s) { return s.protocol === "smb3"; },
    "smb-channels": function (s) { return s.protocol === "smb3" && s.multichannel; },
    "avs-option": function (s) { return s.anf; },
    avs: function (s) { return s.avs; },
    "no-avs": function (s) { return !s.avs; },
  };

  // Inputs that would change the scenario's meaning (or be refused) where they do not
  // apply: while hidden they are disabled, so the form sends the defaults instead.
  var DROP = {
    "volume-kind": true,
    "back-end": true,
    "cool-option": true,
    cool: true,
    "nfs-client": true,
    "nfs-sec": true,
    "smb-sec": true,
    "avs-option": true,
  };

  var levelSelect = form.elements.namedItem("storage.level");
  // The level a service change lands on when the old level is not offered.
  var PREFERRED_LEVEL = { anf: "premium", azure_files: "ssd_v1", gcnv: "premium" };

  // Offer only the chosen service's levels; keep the level if the new service has it.
  function syncLevels(s) {
    if (!levelSelect) return;
    var keep = levelSelect.options[levelSelect.selectedIndex] || null;
    var active = null;
    levelSelect.querySelectorAll("optgroup").forEach(function (g) {
      var on = g.getAttribute("data-service") === s.service;
      g.hidden = !on;
      g.disabled = !on;
      if (on) active = g;
    });
    if (!active) return;
    var opts = Array.prototype.slice.call(active.children);
    var find = function (test) { return opts.filter(test)[0] || null; };
    var pick = find(function (o) { return o === keep; }) ||
      find(function (o) { return keep && o.value === keep.value; }) ||
      find(function (o) { return o.value === PREFERRED_LEVEL[s.service]; }) || opts[0];
    if (pick && !pick.selected) pick.selected = true;
  }

  // Options offered only where they apply; a selected one that stops applying gives
  // way to its fallback.
  function syncOptions(s) {
    form.querySelectorAll("option[data-show]").forEach(function (o) {
      var rule = RULES[o.getAttribute("data-show")];
      var on = rule ? rule(s) : true;
      o.hidden = !on;
      o.disabled = !on;
      if (!on && o.selected) {
        var select = o.closest("select");
        var fallback = select && select.querySelector("option[value=\"" + o.getAttribute("data-fallback") + "\"]");
        if (fallback) fallback.selected = true;
      }
    });
  }

  function applyVisibility() {
    var s = state();
    syncLevels(s);
    syncOptions(state());
    s = state();
    form.querySelectorAll("[data-show]").forEach(function (el) {
      if (el.tagName === "OPTION") return;
      var name = el.getAttribute("data-show");
      var rule = RULES[name];
      el.hidden = rule ? !rule(s) : false;
      if (DROP[name]) {
        el.querySelectorAll("input, select").forEach(function (c) { c.disabled = el.hidden; });
      }
    });
  }

  // ---- Volume groups ------------------------------------------------------

  var groupsBox = document.getElementById("volume-groups");

  function renumberGroups() {
    var groups = groupsBox.querySelectorAll("fieldset.group");
    groups.forEach(function (g, i) {
      g.setAttribute("data-group", String(i + 1));
      var legend = g.querySelector("legend");
      if (legend) legend.textContent = "Group " + (i + 1);
      g.querySelectorAll("[name], [id], [for], [aria-describedby]").forEach(function (el) {
        ["name", "id", "for", "aria-describedby"].forEach(function (attr) {
          var v = el.getAttribute(attr);
          if (v) el.setAttribute(attr, v.replace(/storage\.volumes\[\d+\]/g, "storage.volumes[" + i + "]"));
        });
      });
      var rm = g.querySelector(".remove-group");
      if (rm) {
        rm.hidden = groups.length < 2;
        rm.textContent = "Remove group " + (i + 1);
      }
    });
  }

  function addGroup() {
    var groups = groupsBox.querySelectorAll("fieldset.group");
    var last = groups[groups.length - 1];
    var copy = last.cloneNode(true);
    copy.querySelectorAll("input").forEach(function (input) {
      input.value = "";
      input.removeAttribute("aria-invalid");
    });
    copy.querySelectorAll(".error, .warning").forEach(function (e) { e.textContent = ""; });
    copy.querySelectorAll(".field").forEach(function (f) { f.classList.remove("has-error"); });
    last.parentNode.insertBefore(copy, last.nextSibling);
    renumberGroups();
    var first = copy.querySelector("input");
    if (first) first.focus();
  }

  groupsBox.addEventListener("click", function (e) {
    var btn = e.target.closest(".remove-group");
    if (!btn) return;
    var g = btn.closest("fieldset.group");
    var prev = g.previousElementSibling;
    g.remove();
    renumberGroups();
    if (prev && prev.querySelector) {
      var input = prev.querySelector("input");
      if (input) input.focus();
    }
    changed();
    schedule(0);
  });

  // ---- Live results -------------------------------------------------------

  var timer = null;
  var seq = 0;
  var inflight = null;
  // The server marks a page whose form holds unsaved inputs (an applied
  // recommendation, inputs from a link): leaving it asks first, as after typing.
  var dirty = !!status && status.classList.contains("dirty");
  var lastInput = 0;
  var recalcs = 0;

  function changed() {
    if (dirty || !status) return;
    dirty = true;
    status.textContent = "Unsaved changes.";
    status.classList.add("dirty");
    if (unsavedReports) unsavedReports.hidden = false;
  }

  // The Download menu's reports of the form as it is: the share link's inputs sent to
  // /plan/report.{ext}, kept in step with every recalculation.
  var unsavedReports = document.getElementById("unsaved-reports");
  function syncReports(shareUrl) {
    if (!unsavedReports) return;
    unsavedReports.querySelectorAll("a[data-report]").forEach(function (a) {
      if (!shareUrl) {
        a.setAttribute("aria-disabled", "true");
        return;
      }
      var extra = a.getAttribute("data-edition") ? "edition=" + a.getAttribute("data-edition") + "&" : "";
      a.setAttribute("href", shareUrl.replace("/plan?", "/plan/report." + a.getAttribute("data-report") + "?" + extra));
      a.removeAttribute("aria-disabled");
    });
  }

  function clearMessages() {
    form.querySelectorAll("[aria-invalid]").forEach(function (el) { el.removeAttribute("aria-invalid"); });
    form.querySelectorAll(".field.has-error").forEach(function (f) { f.classList.remove("has-error"); });
    form.querySelectorAll(".error, .field .warning").forEach(function (e) { e.textContent = ""; });
  }

  function showErrors(errors) {
    Object.keys(errors).forEach(function (name) {
      var msg = errors[name];
      var box = document.getElementById("e-" + name);
      if (box) box.textContent = msg;
      var input = document.getElementById("f-" + name);
      if (input) {
        input.setAttribute("aria-invalid", "true");
        var field = input.closest(".field");
        if (field) field.classList.add("has-error");
      }
    });
  }

  // The evaluation's warnings about an input (a feature its region lacks) go beside it.
  function showWarnings(warnings) {
    Object.keys(warnings).forEach(function (name) {
      var box = document.getElementById("w-" + name);
      if (box) box.textContent = warnings[name];
    });
  }

  // ---- Phone: the answer stays in view while editing --------------------------
  //
  // A line at the bottom of a phone's screen repeats the throughput, the monthly cost
  // and the targets while the results are out of view (CSS shows it on narrow screens).

  var phone = document.getElementById("phone-summary");
  var resultsInView = false;

  function summarise() {
    if (!phone) return;
    var mibps = document.getElementById("kpi-mibps");
    if (!mibps || resultsInView) {
      phone.hidden = true;
      return;
    }
    var parts = [mibps.textContent.trim() + " MiB/s"];
    var monthly = document.getElementById("kpi-monthly");
    if (monthly) parts.push(monthly.textContent.trim() + " a month");
    var met = results.querySelectorAll("ul.targets li.met").length;
    var missed = results.querySelectorAll("ul.targets li.missed").length;
    if (missed) parts.push("✘ " + missed + " of " + (met + missed) + " targets missed");
    else if (met) parts.push("✔ targets met");
    phone.textContent = parts.join(" · ");
    phone.hidden = false;
  }

  if (phone && "IntersectionObserver" in window) {
    new IntersectionObserver(function (entries) {
      resultsInView = entries[0].isIntersecting;
      summarise();
    }).observe(results);
  }
  summarise();

  function apply(data) {
    results.innerHTML = data.html;
    summarise();
    // Time from the last keystroke to the new figures, for the browser test's report.
    if (lastInput) results.setAttribute("data-recalc-ms", String(Math.round(performance.now() - lastInput)));
    results.setAttribute("data-recalcs", String(++recalcs));
    results.classList.remove("stale");
    clearMessages();
    showErrors(data.errors || {});
    showWarnings(data.warnings || {});
    if (copyShare) copyShare.disabled = !data.share_url;
    syncReports(data.share_url);
    if (share) {
      if (data.share_url) {
        share.setAttribute("href", data.share_url);
        share.removeAttribute("aria-disabled");
      } else {
        share.setAttribute("aria-disabled", "true");
      }
    }
  }

  // Posts a form body and answers the JSON the server sends back.
  function postForm(url, body) {
    return fetch(url, {
      method: "POST",
      body: body,
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    }).then(function (r) {
      if (!r.ok) throw new Error("The server answered " + r.status + ".");
      return r.json();
    });
  }

  // One request at a time: an edit made while a request is out marks the inputs as
  // changed, and the next request goes as soon as the answer is in. Answers take a
  // few milliseconds, so there is no fixed delay and nothing piles up.
  var pending = false;

  function recalc() {
    clearTimeout(timer);
    timer = null;
    if (inflight) {
      pending = true;
      return;
    }
    pending = false;
    var mine = ++seq;
    inflight = true;
    results.classList.add("stale");
    postForm(endpoint, new URLSearchParams(new FormData(form)))
      .then(function (data) {
        inflight = null;
        if (mine !== seq) return;
        if (pending) {
          recalc();
        } else {
          apply(data);
        }
      })
      .catch(function (err) {
        inflight = null;
        if (pending) {
          recalc();
          return;
        }
        results.classList.remove("stale");
        if (status) status.textContent = "Could not recalculate: " + err.message + " Your inputs are kept.";
      });
  }

  // Another part of the page (a calibration to measured runs) changed what the
  // results rest on: recalculate without marking the inputs as changed.
  document.addEventListener("volplan:recalc", function () { recalc(); });

  function schedule(delay) {
    clearTimeout(timer);
    timer = setTimeout(recalc, delay);
  }

  form.addEventListener("input", function (e) {
    if (!e.target.name) return;
    lastInput = performance.now();
    changed();
    if (e.target.tagName === "SELECT" || e.target.type === "checkbox") return;
    recalc();
  });

  form.addEventListener("change", function (e) {
    if (!e.target.name) return;
    changed();
    // Flexible pools take manual QoS only: choosing Flexible switches QoS to manual
    // (the assigned MiB/s inputs then show).
    var qos = form.elements.namedItem("storage.qos");
    if (e.target.name === "storage.level" && qos && val("storage.service") === "anf" &&
        val("storage.level") === "flexible") {
      qos.value = "manual";
    }
    if (e.target.tagName === "SELECT" || e.target.type === "checkbox") {
      applyVisibility();
      schedule(0);
    }
  });

  // ---- Re-price: the saved revision under today's prices ------------------
  //
  // The button posts to /scenarios/{id}/reprice (a page of its own without script);
  // here the server's rendered comparison goes into the panel above the results.

  var reprice = document.getElementById("reprice");
  var repriceButton = document.getElementById("reprice-button");

  function showReprice(by) {
    var body = reprice.querySelector(".reprice-body");
    reprice.hidden = false;
    body.textContent = "Re-pricing the saved revision…";
    var data = new URLSearchParams();
    data.append("csrf", val("csrf"));
    postForm(by.getAttribute("formaction"), data)
      .then(function (d) {
        body.innerHTML = d.html;
        var title = document.getElementById("reprice-title");
        if (title) title.focus();
      })
      .catch(function (err) {
        body.textContent = "Could not re-price: " + err.message;
      });
  }

  function hideReprice() {
    reprice.hidden = true;
    if (repriceButton) repriceButton.focus();
  }

  if (reprice) {
    reprice.querySelector(".reprice-close").addEventListener("click", hideReprice);
    reprice.addEventListener("keydown", function (e) {
      if (e.key === "Escape") hideReprice();
    });
  }

  form.addEventListener("submit", function (e) {
    var by = e.submitter;
    if (by && by === repriceButton && reprice) {
      e.preventDefault();
      showReprice(by);
      return;
    }
    // Enter in a field (the default button) and Calculate recalculate in place.
    if (!by || by.classList.contains("default-action") || by.classList.contains("calc")) {
      e.preventDefault();
      recalc();
      return;
    }
    if (by.name === "action" && by.value === "add_group") {
      e.preventDefault();
      addGroup();
      changed();
      schedule(0);
    }
  });

  // ---- Unsaved edits: leaving the page asks first ---------------------------
  //
  // A form submission that goes ahead (Save, Save as copy, downloads) is not a loss;
  // any other way off the page with edits gets the browser's "Leave site?" question.

  var submitting = false;
  form.addEventListener("submit", function (e) {
    if (e.defaultPrevented) return;
    submitting = true;
    setTimeout(function () { submitting = false; }, 1500);
  });

  window.addEventListener("beforeunload", function (e) {
    if (!dirty || submitting) return;
    e.preventDefault();
    e.returnValue = "";
  });

  // ---- Menus: Esc or a click elsewhere closes them -------------------------

  function closeMenus(except) {
    form.querySelectorAll("details.menu[open]").forEach(function (d) {
      if (d !== except) d.removeAttribute("open");
    });
  }

  document.addEventListener("keydown", function (e) {
    if (e.key !== "Escape") return;
    var open = form.querySelector("details.menu[open]");
    if (open) {
      closeMenus(null);
      var summary = open.querySelector("summary");
      if (summary) summary.focus();
    }
  });

  document.addEventListener("click", function (e) {
    closeMenus(e.target.closest("details.menu"));
  });

  // ---- Start --------------------------------------------------------------

  var calc = form.querySelector(".calc");
  if (calc) calc.hidden = true;
  renumberGroups();
  applyVisibility();
})();
