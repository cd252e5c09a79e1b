// Unsaved edits on a form marked `data-unsaved-guard`: leaving the page after typing
// into it asks first ("Leave site?"); submitting the form is not a loss. The planner
// keeps its own guard (planner.js), which also knows its live results.
(function () {
  "use strict";
  document.querySelectorAll("form[data-unsaved-guard]").forEach(function (form) {
    var dirty = false;
    var submitting = false;
    var mark = function () { dirty = true; };
    form.addEventListener("input", mark);
    form.addEventListener("change", mark);
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
  });
})();
