// Reorder a list of checkboxes (the Swiss settings' tiebreakers): progressive enhancement.
//
// Without JavaScript each row's up and down buttons post the form with move=up:<code>, and
// the server saves the order with that row moved a place. With it, the buttons move the
// row on the page instead, and rows can be dragged (native HTML5 drag and drop); the form
// posts the checkboxes in their order on the page when it is saved. A polite live region
// says where a row went, for screen readers.
(function () {
  "use strict";
  // Words through Django's JavaScript catalogue (/jsi18n/, loaded before this file by the
  // page), looked up when said; English as written if the catalogue did not load.
  function gettext(text) { return window.gettext ? window.gettext(text) : text; }
  function interpolate(format, values) {
    if (window.interpolate) return window.interpolate(format, values, true);
    return format.replace(/%\((\w+)\)s/g, function (all, name) { return String(values[name]); });
  }


  function rows(list) {
    return Array.prototype.slice.call(list.querySelectorAll(":scope > .reorder-item"));
  }

  function label(row) {
    var text = row.querySelector("label");
    return text ? text.textContent.trim() : "";
  }

  function refresh(list) {
    var all = rows(list);
    all.forEach(function (row, index) {
      var up = row.querySelector('button[value^="up:"]');
      var down = row.querySelector('button[value^="down:"]');
      if (up) up.disabled = index === 0;
      if (down) down.disabled = index === all.length - 1;
    });
  }

  function announce(list, row) {
    var status = list._status;
    if (!status) return;
    var position = rows(list).indexOf(row) + 1;
    status.textContent = interpolate(gettext("%(name)s: position %(position)s of %(count)s"), {
      name: label(row), position: position, count: rows(list).length
    });
  }

  function move(list, row, step) {
    var all = rows(list);
    var at = all.indexOf(row);
    var to = at + step;
    if (to < 0 || to >= all.length) return;
    if (step < 0) list.insertBefore(row, all[to]);
    else list.insertBefore(row, all[to].nextSibling);
    refresh(list);
    announce(list, row);
  }

  function enhance(list) {
    var status = document.createElement("p");
    status.className = "visually-hidden";
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    list.parentNode.insertBefore(status, list.nextSibling);
    list._status = status;
    var dragged = null;

    list.addEventListener("click", function (event) {
      var button = event.target.closest('button[name="move"]');
      if (!button || !list.contains(button)) return;
      event.preventDefault();
      var row = button.closest(".reorder-item");
      var step = button.value.indexOf("up:") === 0 ? -1 : 1;
      move(list, row, step);
      if (!button.disabled) button.focus();
      else {
        var other = row.querySelector('button[name="move"]:not([disabled])');
        if (other) other.focus();
      }
    });

    rows(list).forEach(function (row) {
      row.setAttribute("draggable", "true");
    });

    function clearMarks() {
      rows(list).forEach(function (row) {
        row.classList.remove("drop-before", "drop-after");
      });
    }

    list.addEventListener("dragstart", function (event) {
      var row = event.target.closest && event.target.closest(".reorder-item");
      if (!row) return;
      dragged = row;
      row.classList.add("dragging");
      event.dataTransfer.effectAllowed = "move";
      event.dataTransfer.setData("text/plain", row.getAttribute("data-value") || "");
    });

    list.addEventListener("dragover", function (event) {
      if (!dragged) return;
      var row = event.target.closest && event.target.closest(".reorder-item");
      event.preventDefault();
      event.dataTransfer.dropEffect = "move";
      clearMarks();
      if (!row || row === dragged) return;
      var box = row.getBoundingClientRect();
      row.classList.add(event.clientY < box.top + box.height / 2 ? "drop-before" : "drop-after");
    });

    list.addEventListener("drop", function (event) {
      if (!dragged) return;
      event.preventDefault();
      var row = event.target.closest && event.target.closest(".reorder-item");
      if (row && row !== dragged) {
        var box = row.getBoundingClientRect();
        var before = event.clientY < box.top + box.height / 2;
        list.insertBefore(dragged, before ? row : row.nextSibling);
      }
      clearMarks();
      refresh(list);
      announce(list, dragged);
    });

    list.addEventListener("dragend", function () {
      if (dragged) dragged.classList.remove("dragging");
      dragged = null;
      clearMarks();
    });

    refresh(list);
  }

  function init() {
    document.querySelectorAll("[data-reorder]").forEach(enhance);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
