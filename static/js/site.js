// What every page needs from a script, without inline code (the Content-Security-Policy,
// core/csp.py, runs only files from /static/):
// - round clocks count down from the server's deadline (data-ends-at); htmx refreshes them;
// - a form with data-confirm asks before it is sent (a button can carry its own question);
// - a button with data-print prints the page;
// - the outcome of an action (the messages) shows as a toast at the bottom of the screen,
//   in view wherever the control was (a phone scrolled far down a long page): a close
//   button on each, a success fading after a while, a refusal staying until closed.
(function () {
  "use strict";
  // Words through Django's JavaScript catalogue (/jsi18n/, loaded before this file by the
  // page), looked up when said; English as written if the catalogue did not load.
  function gettext(text) { return window.gettext ? window.gettext(text) : text; }


  function tick() {
    document.querySelectorAll(".countdown[data-ends-at]").forEach(function (el) {
      var left = Math.round((Date.parse(el.dataset.endsAt) - Date.now()) / 1000);
      if (isNaN(left)) return;
      if (left <= 0) { el.textContent = "0:00"; el.classList.add("over"); return; }
      var m = Math.floor(left / 60), s = left % 60;
      el.textContent = m + ":" + (s < 10 ? "0" : "") + s;
      el.classList.toggle("low", left <= 600);
    });
  }

  // Capture phase: the question comes before htmx or any other handler sends the form.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var question = form instanceof HTMLFormElement && form.dataset.confirm;
    if (question && !window.confirm(question)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);

  document.addEventListener("click", function (event) {
    var button = event.target instanceof Element && event.target.closest("[data-print]");
    if (button) {
      event.preventDefault();
      window.print();
    }
  });

  function toasts() {
    document.querySelectorAll(".messages li:not([data-toast])").forEach(function (item) {
      item.setAttribute("data-toast", "1");
      var close = document.createElement("button");
      close.type = "button";
      close.className = "toast-close";
      close.setAttribute("aria-label", gettext("Close this message"));
      close.textContent = "×";
      close.addEventListener("click", function () { item.remove(); });
      item.appendChild(close);
      if (item.classList.contains("success") || item.classList.contains("info")) {
        setTimeout(function () { item.classList.add("fading"); }, 9000);
        setTimeout(function () { item.remove(); }, 10000);
      }
    });
  }

  tick();
  toasts();
  setInterval(tick, 1000);
  document.addEventListener("htmx:afterSwap", function () { tick(); toasts(); });
})();
