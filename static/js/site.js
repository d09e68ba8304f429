// What every page needs from a script, without inline code (the Content-Security-Policy,
// core/csp.py, runs only files from /static/):
// - round clocks count down from the server's deadline (data-ends-at); htmx refreshes them;
// - a form with data-confirm asks before it is sent (a button can carry its own question);
// - a button with data-print prints the page.
(function () {
  "use strict";

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

  tick();
  setInterval(tick, 1000);
  document.addEventListener("htmx:afterSwap", tick);
})();
