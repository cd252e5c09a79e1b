// The live page's form sent in the background: the answer's sections replace the
// old ones and each field's error is set beside it, while the form keeps what was
// chosen, files included (a page reload would empty the file inputs). Without the
// script the form posts as usual and the server keeps the plan and revision.
(function () {
  "use strict";
  var form = document.getElementById("live-upload");
  if (!form || !window.fetch || !window.DOMParser) return;
  var busy = false;
  // Enter in the plan's fields compares (the form's first button only reads the estate).
  var plan = document.getElementById("live-plan");
  var compare = document.getElementById("live-compare");
  if (plan && compare && form.requestSubmit) {
    plan.addEventListener("keydown", function (e) {
      if (e.key !== "Enter" || e.target.tagName !== "INPUT") return;
      e.preventDefault();
      form.requestSubmit(compare);
    });
  }
  form.addEventListener("submit", function (e) {
    e.preventDefault();
    if (busy) return;
    busy = true;
    var submitter = e.submitter || null;
    var action = (submitter && submitter.getAttribute("formaction")) || form.getAttribute("action");
    var data = new FormData(form);
    form.setAttribute("aria-busy", "true");
    fetch(action, { method: "POST", body: data, credentials: "same-origin" })
      .then(function (res) { return res.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.querySelector(".live");
        if (!fresh) {
          // Not the live page (an error page): show it as a normal post would.
          document.open();
          document.write(html);
          document.close();
          return;
        }
        form.querySelectorAll(".field").forEach(function (field) {
          var error = field.querySelector(".error");
          var control = field.querySelector("input, select");
          if (!error || !control) return;
          var now = doc.getElementById(error.id);
          var text = now ? now.textContent : "";
          error.textContent = text;
          field.classList.toggle("has-error", text !== "");
          if (text) control.setAttribute("aria-invalid", "true");
          else control.removeAttribute("aria-invalid");
        });
        var old = document.querySelector(".live");
        Array.prototype.slice.call(old.children, 1).forEach(function (s) { s.remove(); });
        Array.prototype.slice.call(fresh.children, 1).forEach(function (s) {
          old.appendChild(document.importNode(s, true));
        });
        // Keyboard and screen-reader users land on what changed: the first field in
        // error, else the first new heading.
        var invalid = form.querySelector("[aria-invalid=true]");
        var heading = old.children[1] && old.children[1].querySelector("h2");
        if (invalid) {
          invalid.focus();
        } else if (heading) {
          heading.setAttribute("tabindex", "-1");
          heading.focus();
        }
      })
      .catch(function () {
        form.submit();
      })
      .then(function () {
        busy = false;
        form.removeAttribute("aria-busy");
      });
  });
})();
