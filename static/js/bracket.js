// The bracket drawing on a screen narrower than the bracket (templates/tournaments/
// bracket.html): it scrolls sideways at its readable size, and says so (shadows at the
// edges that have more, a line under the buttons); "Fit to screen" shrinks it to the
// page's width instead (a phone then zooms with two fingers, the drawing being vector),
// "Actual size" brings it back; the choice is remembered. On load the player's own box
// is scrolled into view. The drawing is replaced when the bracket changes (htmx), so
// everything is looked up again after every swap.
(function () {
  "use strict";
  var KEY = "bracket-fit";
  var root = document.getElementById("bracket-drawing");
  if (!root) return;
  var hint = document.getElementById("bracket-hint");
  var fitButton = document.getElementById("bracket-fit");
  var fullButton = document.getElementById("bracket-full");
  var centred = false;

  function fitted() {
    try { return localStorage.getItem(KEY) === "1"; } catch (e) { return false; }
  }

  function update() {
    var box = root.querySelector(".bracket-scroll");
    root.classList.toggle("bracket-fit", fitted());
    if (fitButton) fitButton.setAttribute("aria-pressed", fitted() ? "true" : "false");
    if (fullButton) fullButton.setAttribute("aria-pressed", fitted() ? "false" : "true");
    if (!box) return;
    var room = box.scrollWidth - box.clientWidth;
    var frame = box.parentElement;
    frame.classList.add("bracket-frame");
    frame.classList.toggle("more-left", room > 2 && box.scrollLeft > 2);
    frame.classList.toggle("more-right", room > 2 && box.scrollLeft < room - 2);
    if (hint) hint.hidden = room <= 2;
    if (!centred && room > 2) {
      var mine = box.querySelector(".line.me");
      if (mine) {
        var a = mine.getBoundingClientRect(), b = box.getBoundingClientRect();
        box.scrollLeft += a.left - b.left - (b.width - a.width) / 2;
      }
      centred = true;
    }
  }

  function choose(fit) {
    try { localStorage.setItem(KEY, fit ? "1" : "0"); } catch (e) {}
    update();
  }

  if (fitButton) fitButton.addEventListener("click", function () { choose(true); });
  if (fullButton) fullButton.addEventListener("click", function () { choose(false); });
  document.addEventListener("scroll", function (event) {
    if (event.target instanceof Element && event.target.classList.contains("bracket-scroll")) update();
  }, true);
  window.addEventListener("resize", update);
  document.body.addEventListener("htmx:afterSwap", update);
  update();
})();
