// The one live mechanism in the browser (core/live.py is its twin on the server): every
// live page opens its websocket here, and no other file opens one (tests/architecture/
// test_live.py). Live.open(options) connects to options.path and:
//
// - reconnects with jittered exponential backoff when the socket drops (a server restart
//   must not bring every phone back in the same instant), at once when the browser says it
//   is online again or the page comes back into view;
// - polls while away: while the socket is down, options.poll() every POLL_MS (the page
//   fetches its state over HTTP; polling stops when the socket is back);
// - resyncs on return: when the page comes back into view, options.resync() if the socket
//   is open (ask for a fresh snapshot, fetch the content again), else options.poll();
// - keeps a quiet socket honest: after QUIET_MS of silence it sends options.heartbeat (a
//   snapshot request, a ping), and closes a socket silent for DEAD_MS (a proxy dropped
//   it without a word) so that it reconnects;
// - stops for good when the server closes with 4403 (the viewer may no longer see the
//   page: their role or session changed) or 4404 (not there, or not theirs).
//
// Callbacks (all optional): onMessage(message) with every parsed message, onOpen() when
// the socket opens, onDown() when it drops (reconnecting), onGone(code) on 4403/4404.
// The handle: send(message) (false when the socket is not open: send over HTTP instead),
// isOpen(), connect() (reconnect now if down).
//
// Pages that only need to know *that* something changed use the fragments below: an
// element with data-live-socket (a socket saying "hello" on connect and "changed" after
// every change) and an htmx hx-get triggered by "live:refresh" is fetched again after
// every change and every (re)connect.
(function () {
  "use strict";
  // Words through Django's JavaScript catalogue (/jsi18n/, loaded before this file by the
  // page), looked up when said; English as written if the catalogue did not load.
  function gettext(text) { return window.gettext ? window.gettext(text) : text; }
  // One set of limits for every live page.
  var FIRST_RETRY_MS = 500, MAX_RETRY_MS = 10000;
  var POLL_MS = 5000, QUIET_MS = 20000, DEAD_MS = 60000, CHECK_MS = 5000;
  var GONE = { 4403: true, 4404: true };

  function open(options) {
    var ws = null, attempts = 0, retryTimer = null, pollTimer = null, gone = false;
    var lastSeen = Date.now(), lastAsked = 0;

    function call(name, arg) { if (options[name]) options[name](arg); }

    function connect() {
      if (ws || gone) return;
      clearTimeout(retryTimer); retryTimer = null;
      var scheme = location.protocol === "https:" ? "wss://" : "ws://", socket;
      try { socket = new WebSocket(scheme + location.host + options.path); }
      catch (e) { down(); return; }
      ws = socket;
      socket.onopen = function () {
        if (ws !== socket) return;
        attempts = 0; lastSeen = Date.now(); stopPolling();
        call("onOpen");
      };
      socket.onmessage = function (event) {
        if (ws !== socket) return;
        lastSeen = Date.now();
        var message;
        try { message = JSON.parse(event.data); } catch (e) { return; }
        call("onMessage", message);
      };
      socket.onclose = function (event) {
        if (ws !== socket) return;
        ws = null;
        if (GONE[event.code]) { gone = true; stopPolling(); call("onGone", event.code); return; }
        down();
      };
    }

    function down() {
      call("onDown");
      startPolling();
      if (retryTimer || gone) return;
      // Exponential backoff with jitter: half the step plus up to another half.
      var step = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * Math.pow(2, attempts++));
      retryTimer = setTimeout(function () { retryTimer = null; connect(); }, step / 2 + Math.random() * step / 2);
    }

    function startPolling() {
      if (pollTimer || !options.poll) return;
      options.poll();
      pollTimer = setInterval(function () { options.poll(); }, POLL_MS);
    }
    function stopPolling() { if (pollTimer) { clearInterval(pollTimer); pollTimer = null; } }

    function isOpen() { return !!ws && ws.readyState === 1; }

    function send(message) {
      if (!isOpen()) return false;
      try { ws.send(JSON.stringify(message)); } catch (e) { return false; }
      return true;
    }

    setInterval(function () {
      if (!isOpen() || !options.heartbeat) return;
      var now = Date.now();
      if (now - lastSeen > DEAD_MS) { ws.close(); return; }
      if (now - lastSeen > QUIET_MS && now - lastAsked > QUIET_MS) { lastAsked = now; send(options.heartbeat); }
    }, CHECK_MS);

    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState !== "visible" || gone) return;
      if (isOpen()) call("resync");
      else { call("poll"); connect(); }
    });
    window.addEventListener("online", function () { if (!isOpen()) connect(); });

    connect();
    return { send: send, isOpen: isOpen, connect: connect };
  }

  window.Live = { open: open };

  // --- live fragments ---------------------------------------------------------------------

  var state = document.getElementById("live-state");

  function show(name, words) {
    if (!state) return;
    state.setAttribute("data-state", name);
    state.textContent = words;
  }

  function watch(root) {
    var timer = null;

    // The user's own requests on the page (a one-tap result in the grid) answer in place
    // ("Entered"): a refresh waits a few seconds after one, so that answer is seen. A
    // refresh already on its way when the user tapped is thrown away (it would put back the
    // row as it was before the tap, or swallow the answer) and asked for again later.
    var QUIET_OWN_MS = 5000, lastOwn = 0, ownInFlight = 0, refreshSent = 0;
    document.body.addEventListener("htmx:beforeRequest", function (event) {
      if (event.target === root) { refreshSent = Date.now(); return; }
      lastOwn = Date.now(); ownInFlight++;
    });
    document.body.addEventListener("htmx:afterRequest", function (event) {
      if (event.target !== root && ownInFlight > 0) { ownInFlight--; lastOwn = Date.now(); }
    });
    root.addEventListener("htmx:beforeSwap", function (event) {
      if (event.target !== root) return;
      if (ownInFlight > 0 || lastOwn >= refreshSent) { event.detail.shouldSwap = false; refresh(); }
    });

    function refresh() {
      // A burst of changes (eight results in a row) becomes one or two fetches.
      if (timer) return;
      var wait = Math.max(150 + Math.random() * 350, lastOwn + QUIET_OWN_MS - Date.now());
      timer = setTimeout(function () {
        timer = null;
        if (ownInFlight > 0 || Date.now() - lastOwn < QUIET_OWN_MS) { refresh(); return; }
        if (window.htmx) window.htmx.trigger(root, "live:refresh");
      }, wait);
    }

    open({
      path: root.getAttribute("data-live-socket"),
      heartbeat: { type: "ping" },
      onMessage: function (message) {
        if (message.type === "hello") { show("live", gettext("live")); refresh(); }
        else if (message.type === "changed") refresh();
      },
      onDown: function () { show("offline", gettext("reconnecting…")); },
      onGone: function () { show("offline", gettext("no longer available: reload the page")); },
      poll: refresh,
      resync: refresh
    });
  }

  function start() { document.querySelectorAll("[data-live-socket]").forEach(watch); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
