// The projector screen (templates/tournaments/projector.html).
//
// Live: the tournament's websocket (/ws/tournaments/<id>/projector/) says "hello" on every
// (re)connect and "changed" after every change; the page then fetches its content again
// (htmx.ajax: the container's data-content, the page on show). A hello always
// refreshes, since the page may have missed a change while it was away. The socket is
// static/js/live.js's: while it is down the page reconnects and polls the content.
//
// The clock counts down from the server's time: each fetched content says what time the
// server had (data-now-ms), and the page keeps the difference to its own clock. The tables
// scroll slowly when they do not fit, pausing at the top and at the bottom.
//
// A big round comes a page of tables at a time (#pj-pager in the content: its page, how
// many pages, how long a page stays): the screen turns to the next page on a steady beat,
// whatever the live refreshes in between, and every refresh fetches the page on show.
(function () {
  "use strict";
  // Words through Django's JavaScript catalogue (/jsi18n/, loaded before this file by the
  // page), looked up when said; English as written if the catalogue did not load.
  function gettext(text) { return window.gettext ? window.gettext(text) : text; }
  function pgettext(context, text) { return window.pgettext ? window.pgettext(context, text) : text; }
  var root = document.getElementById("projector-content");
  if (!root) return;

  var PAUSE_MS = 6000; // at the top and at the bottom of the tables
  var status = document.getElementById("pj-connection");
  var offline = document.getElementById("pj-offline");
  var offset = 0; // the server's clock minus ours, in ms

  // --- fetching the content ------------------------------------------------------------

  var base = root.getAttribute("data-content");
  var page = 1, pages = 1, turnTimer = null, turnMs = 0;

  function fetchContent() {
    if (!window.htmx) return;
    var url = page > 1 ? base + (base.indexOf("?") < 0 ? "?" : "&") + "page=" + page : base;
    window.htmx.ajax("GET", url, { source: root, target: root, swap: "innerHTML" });
  }

  var refreshTimer = null;
  function refresh() {
    // A burst of changes (a round paired, eight results in) becomes one or two fetches; a
    // little jitter keeps several screens of one room from asking at the same instant.
    if (refreshTimer) return;
    refreshTimer = setTimeout(function () {
      refreshTimer = null;
      fetchContent();
    }, 150 + Math.random() * 350);
  }

  // --- a big round's pages ------------------------------------------------------------------

  function readPager() {
    // What the content says: how many pages now (a round paired, a round complete) and how
    // long one stays. The page shown is the screen's own: a refresh that was on its way
    // while the page turned must not turn it back.
    var pager = document.getElementById("pj-pager");
    pages = pager ? Number(pager.getAttribute("data-pages")) || 1 : 1;
    if (page > pages) page = 1;
    var ms = pager ? (Number(pager.getAttribute("data-seconds")) || 15) * 1000 : 0;
    if (ms === turnMs) return;
    turnMs = ms;
    clearInterval(turnTimer); turnTimer = null;
    if (ms) {
      turnTimer = setInterval(function () {
        if (pages <= 1) return;
        page = page % pages + 1;
        fetchContent();
      }, ms);
    }
  }

  // --- the clock ----------------------------------------------------------------------------

  function syncClock() {
    var clock = document.getElementById("pj-clock");
    if (!clock) return;
    var now = Number(clock.getAttribute("data-now-ms"));
    if (now) offset = now - Date.now();
  }

  function format(seconds) {
    var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    var mm = h ? (m < 10 ? "0" : "") + m : String(m);
    return (h ? h + ":" : "") + mm + ":" + (s < 10 ? "0" : "") + s;
  }

  function tick() {
    var clock = document.getElementById("pj-clock");
    if (!clock) return;
    var ends = Number(clock.getAttribute("data-ends-ms"));
    var shown = clock.querySelector(".pj-countdown");
    if (!ends || !shown) return;
    var left = Math.ceil((ends - (Date.now() + offset)) / 1000);
    var label = clock.querySelector(".pj-clock-label");
    if (left <= 0) {
      shown.textContent = pgettext("the round's time is up", "TIME");
      if (label) label.textContent = gettext("time is called");
      clock.classList.add("over");
    } else {
      shown.textContent = format(left);
      clock.classList.toggle("low", left <= 600);
    }
  }

  // --- scrolling the tables when they do not fit -----------------------------------------------

  var scroll = { position: 0, phase: "top", since: 0, last: 0 };

  function step(time) {
    var box = document.getElementById("pj-scroll");
    var dt = scroll.last ? Math.min(time - scroll.last, 100) : 0;
    scroll.last = time;
    if (box) {
      var room = box.scrollHeight - box.clientHeight;
      if (room <= 2) {
        scroll.position = 0; scroll.phase = "top"; scroll.since = time;
      } else if (scroll.phase === "top" || scroll.phase === "bottom") {
        if (time - scroll.since > PAUSE_MS) {
          if (scroll.phase === "bottom") { scroll.position = 0; scroll.phase = "top"; }
          else scroll.phase = "down";
          scroll.since = time;
        }
      } else {
        // About one row in two seconds: slow enough to read a name on the way.
        var row = box.querySelector("tbody tr");
        var speed = (row ? row.offsetHeight : 40) / 2000;
        scroll.position = Math.min(room, scroll.position + speed * dt);
        if (scroll.position >= room) { scroll.phase = "bottom"; scroll.since = time; }
      }
      box.scrollTop = Math.round(scroll.position);
      box.classList.toggle("more", room > 2 && scroll.position < room - 2);
    }
    window.requestAnimationFrame(step);
  }

  // --- the websocket ----------------------------------------------------------------------------

  function show(state, words) {
    if (status) { status.setAttribute("data-state", state); status.textContent = words; }
    if (offline) offline.hidden = state !== "offline";
  }

  // static/js/live.js: reconnects with jittered backoff, pings a quiet socket (a proxy may
  // have dropped it), refreshes every few seconds while the socket is down and when the
  // screen comes back.
  function follow() {
    if (!window.Live) return;
    window.Live.open({
      path: root.getAttribute("data-socket"),
      heartbeat: { type: "ping" },
      onMessage: function (message) {
        if (message.type === "hello") {
          show("live", gettext("live"));
          refresh(); // a snapshot on every (re)connect: a change may have been missed
        } else if (message.type === "changed") {
          refresh();
        }
      },
      onDown: function () { show("offline", gettext("reconnecting")); },
      onGone: function () { show("offline", gettext("not found")); },
      poll: refresh,
      resync: refresh
    });
  }

  // --- the frame: full screen, the screen kept awake, the controls hidden while idle ----------

  var fullscreen = document.getElementById("pj-fullscreen");
  if (fullscreen) {
    if (!document.documentElement.requestFullscreen) fullscreen.hidden = true;
    fullscreen.addEventListener("click", function () {
      if (document.fullscreenElement) document.exitFullscreen();
      else document.documentElement.requestFullscreen().catch(function () {});
    });
  }

  var lock = null;
  function keepAwake() {
    if (!navigator.wakeLock || document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then(function (l) {
      lock = l;
      l.addEventListener("release", function () { lock = null; });
    }, function () {});
  }

  var idleTimer = null;
  function active() {
    document.body.classList.remove("idle");
    clearTimeout(idleTimer);
    idleTimer = setTimeout(function () { document.body.classList.add("idle"); }, 4000);
  }
  ["mousemove", "keydown", "touchstart"].forEach(function (name) {
    document.addEventListener(name, active, { passive: true });
  });

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && !lock) keepAwake();
  });

  // A failed fetch (a server restarting) swaps nothing (htmx leaves 4xx and 5xx alone):
  // the screen keeps what it shows until the next one.
  document.body.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target !== root) return;
    syncClock(); tick(); readPager();
  });

  var first = document.getElementById("pj-pager");
  if (first) page = Number(first.getAttribute("data-page")) || 1;
  readPager();
  syncClock(); tick(); setInterval(tick, 250);
  window.requestAnimationFrame(step);
  active(); keepAwake(); follow();
})();
