// Home: confirm a delete in a dialog instead of the confirmation page.
// Without JavaScript the Delete link opens that page, which posts the same form.
(function () {
  "use strict";
  var dialog = document.getElementById("delete-dialog");
  if (!dialog || typeof dialog.showModal !== "function") return;
  var form = dialog.querySelector("form");
  var name = document.getElementById("delete-name");
  var opener = null;

  document.addEventListener("click", function (e) {
    var link = e.target.closest("a[data-delete]");
    if (!link) return;
    e.preventDefault();
    opener = link;
    form.setAttribute("action", link.getAttribute("href"));
    name.textContent = "“" + link.getAttribute("data-delete") + "”";
    dialog.showModal();
    var cancel = dialog.querySelector(".dialog-cancel");
    if (cancel) cancel.focus();
  });

  dialog.querySelector(".dialog-cancel").addEventListener("click", function () {
    dialog.close();
  });

  dialog.addEventListener("close", function () {
    if (opener) opener.focus();
  });
})();
