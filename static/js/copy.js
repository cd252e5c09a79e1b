// Copy buttons: `data-copy="ID"` copies the text of element ID (the advisor's fstab and
// kernel settings), `data-copy-href="ID"` the absolute address of link ID (the
// planner's share link, which changes as the form changes). Pages work without this
// script; the buttons stay hidden then.
(function () {
  "use strict";

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text);
    }
    // Fallback for plain-HTTP origins other than localhost: a hidden textarea.
    return new Promise(function (resolve, reject) {
      var area = document.createElement("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      area.className = "offscreen";
      document.body.appendChild(area);
      area.select();
      var ok = false;
      try {
        ok = document.execCommand("copy");
      } catch (e) {
        ok = false;
      }
      document.body.removeChild(area);
      if (ok) {
        resolve();
      } else {
        reject(new Error("copy refused"));
      }
    });
  }

  // What a button copies, read at click time.
  function source(button) {
    var text = document.getElementById(button.getAttribute("data-copy"));
    if (text) {
      return function () { return text.textContent; };
    }
    var link = document.getElementById(button.getAttribute("data-copy-href"));
    if (link) {
      return function () { return new URL(link.getAttribute("href"), window.location.href).href; };
    }
    return null;
  }

  function setup(button) {
    var read = source(button);
    if (!read) {
      return;
    }
    var label = button.textContent;
    button.hidden = false;
    button.addEventListener("click", function () {
      copyText(read()).then(
        function () {
          button.textContent = "Copied";
        },
        function () {
          button.textContent = "Select and copy by hand";
        }
      ).then(function () {
        window.setTimeout(function () {
          button.textContent = label;
        }, 2000);
      });
    });
  }

  function init() {
    var buttons = document.querySelectorAll("button[data-copy], button[data-copy-href]");
    for (var i = 0; i < buttons.length; i++) {
      setup(buttons[i]);
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
