// fourfold search page: keyboard first (/ search, j/k move, Enter open), line ranges in the file
// view (#L120-L140, shift-click to extend), and definition/references/impact from any identifier.
// The page works without this file; it only enhances.
(function () {
  "use strict";
  var selected = -1;

  function hits() { return Array.prototype.slice.call(document.querySelectorAll(".hit")); }

  function select(i) {
    var all = hits();
    if (!all.length) return;
    selected = Math.max(0, Math.min(all.length - 1, i));
    all.forEach(function (h, j) { h.classList.toggle("selected", j === selected); });
    all[selected].scrollIntoView({ block: "nearest" });
  }

  function typing(e) {
    var t = e.target;
    return t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA" || t.isContentEditable);
  }

  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "Escape") { hidePopover(); if (typing(e)) e.target.blur(); return; }
    if (typing(e)) return;
    if (e.key === "/") {
      var q = document.getElementById("q");
      if (q) { e.preventDefault(); q.focus(); q.select(); }
    } else if (e.key === "j") { select(selected + 1); }
    else if (e.key === "k") { select(selected - 1); }
    else if (e.key === "Enter" && selected >= 0) {
      var h = hits()[selected];
      if (h && h.dataset.href) window.location.href = h.dataset.href;
    }
  });

  // Short shareable URLs: leave out empty fields and defaults before htmx sends and pushes them.
  var DEFAULTS = { preset: "default", k: "10" };
  document.addEventListener("htmx:configRequest", function (e) {
    var p = e.detail.parameters;
    var names = typeof p.keys === "function" ? Array.from(p.keys()) : Object.keys(p);
    names.forEach(function (name) {
      var v = typeof p.get === "function" ? p.get(name) : p[name];
      if (v === "" || DEFAULTS[name] === v) {
        if (typeof p.delete === "function") p.delete(name);
        else delete p[name];
      }
    });
  });
  document.addEventListener("htmx:afterSwap", function () { selected = -1; });

  // -- file view: line anchors -----------------------------------------------------------------
  function parseRange(hash) {
    var m = /^#L(\d+)(?:-L?(\d+))?$/.exec(hash || "");
    if (!m) return null;
    var a = +m[1], b = +(m[2] || m[1]);
    return a <= b ? [a, b] : [b, a];
  }

  function markRange(initial) {
    var r = parseRange(window.location.hash);
    var rows = document.querySelectorAll("table.full tr[id^='L']");
    if (!rows.length || !r) return;
    var first = document.getElementById("L" + r[0]);
    if (initial === true && first && first.classList.contains("hl")) {
      first.scrollIntoView({ block: "nearest" }); // the server marked the hit's range (?hl=): keep it
      return;
    }
    rows.forEach(function (tr) {
      var n = +tr.id.slice(1);
      tr.classList.toggle("hl", n >= r[0] && n <= r[1]);
    });
    if (first) first.scrollIntoView({ block: "nearest" });
  }

  var anchor = null;
  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest("table.full td.ln a");
    if (a) {
      e.preventDefault();
      var n = +a.textContent;
      var hash = e.shiftKey && anchor ? "#L" + Math.min(anchor, n) + "-L" + Math.max(anchor, n) : "#L" + n;
      if (!e.shiftKey) anchor = n;
      history.replaceState(null, "", window.location.pathname + window.location.search + hash);
      markRange();
      return;
    }
    var tok = e.target.closest && e.target.closest("table.code td.src span");
    if (tok && /^(n|nf|nc|nx|na|nb|nn|nv|py|fm)$/.test(tok.className) && /^[A-Za-z_$][\w$]*$/.test(tok.textContent)) {
      showPopover(tok);
      return;
    }
    if (!(e.target.closest && e.target.closest("#popover"))) hidePopover();
  });

  // -- identifiers: definition / references / impact --------------------------------------------
  function link(text, href) {
    var a = document.createElement("a");
    a.textContent = text;
    a.href = href;
    return a;
  }

  function showPopover(tok) {
    var pop = document.getElementById("popover");
    if (!pop) return;
    var name = tok.textContent;
    var table = tok.closest("table");
    var repo = table && table.dataset.repo ? "&repo=" + encodeURIComponent(table.dataset.repo) : "";
    var q = "?q=" + encodeURIComponent(name) + repo;
    pop.textContent = "";
    var title = document.createElement("strong");
    title.textContent = name;
    pop.appendChild(title);
    pop.appendChild(link("definition", "/" + q + "&intent=definition"));
    pop.appendChild(link("references", "/" + q + "&intent=references"));
    pop.appendChild(link("impact", "/" + q + "&intent=impact"));
    pop.appendChild(link("all three", "/symbol?name=" + encodeURIComponent(name) + repo));
    var r = tok.getBoundingClientRect();
    pop.style.left = (window.scrollX + r.left) + "px";
    pop.style.top = (window.scrollY + r.bottom + 4) + "px";
    pop.hidden = false;
  }

  function hidePopover() {
    var pop = document.getElementById("popover");
    if (pop) pop.hidden = true;
  }

  window.addEventListener("hashchange", markRange);
  if (document.readyState !== "loading") markRange(true);
  else document.addEventListener("DOMContentLoaded", function () { markRange(true); });
})();
