/* rulekb: reference tooltips. Hovering, focusing or tapping a link to a rule shows the
 * target's title, what it is (kind, book and page) and its first sentence, from
 * window.RULEKB_TIPS (rulekb-tips-data.js, built with the site). On a touch screen the first
 * tap on a link shows the tip (with a link to open the rule), a second tap follows the link.
 * The map's zoom buttons live here too. Data is only ever put into the page as text.
 */
(function () {
  "use strict";

  var tipBox = null, current = null, hideTimer = null, touched = null;

  function anchorOf(a) {
    var href = a.getAttribute("href") || a.getAttribute("xlink:href") || "";
    var i = href.indexOf("#");
    return i >= 0 ? decodeURIComponent(href.slice(i + 1)) : "";
  }

  function tipFor(a) {
    var data = window.RULEKB_TIPS;
    var key = anchorOf(a);
    return data && key && Object.prototype.hasOwnProperty.call(data, key) ? data[key] : null;
  }

  function box() {
    if (tipBox) return tipBox;
    tipBox = document.createElement("div");
    tipBox.className = "rulekb-tip";
    tipBox.setAttribute("role", "tooltip");
    tipBox.id = "rulekb-tip";
    tipBox.hidden = true;
    tipBox.addEventListener("mouseenter", function () { clearTimeout(hideTimer); });
    tipBox.addEventListener("mouseleave", scheduleHide);
    document.body.appendChild(tipBox);
    return tipBox;
  }

  function show(a, withLink) {
    var data = tipFor(a);
    if (!data) return false;
    clearTimeout(hideTimer);
    var b = box();
    while (b.firstChild) b.removeChild(b.firstChild);
    var title = document.createElement("strong");
    title.className = "rulekb-tip-title";
    title.textContent = data[0];
    b.appendChild(title);
    if (data[1]) {
      var kind = document.createElement("span");
      kind.className = "rulekb-tip-kind";
      kind.textContent = data[1];
      b.appendChild(kind);
    }
    if (data[2]) {
      var p = document.createElement("span");
      p.className = "rulekb-tip-text";
      p.textContent = data[2];
      b.appendChild(p);
    }
    if (withLink) {
      var go = document.createElement("a");
      go.className = "rulekb-tip-open";
      go.href = a.href && a.href.baseVal !== undefined ? a.href.baseVal : a.href;
      go.textContent = "Открыть →";
      b.appendChild(go);
    }
    b.hidden = false;
    current = a;
    a.setAttribute("aria-describedby", "rulekb-tip");
    place(a, b);
    return true;
  }

  function place(a, b) {
    var r = a.getBoundingClientRect();
    var width = Math.min(360, document.documentElement.clientWidth - 16);
    b.style.maxWidth = width + "px";
    var left = Math.max(8, Math.min(r.left + window.scrollX,
      window.scrollX + document.documentElement.clientWidth - width - 8));
    b.style.left = left + "px";
    b.style.top = (r.bottom + window.scrollY + 6) + "px";
    var below = r.bottom + 6 + b.offsetHeight;
    if (below > window.innerHeight && r.top > b.offsetHeight + 12) {
      b.style.top = (r.top + window.scrollY - b.offsetHeight - 6) + "px";
    }
  }

  function hide() {
    if (tipBox) tipBox.hidden = true;
    if (current) current.removeAttribute("aria-describedby");
    current = null;
  }

  function scheduleHide() {
    clearTimeout(hideTimer);
    hideTimer = setTimeout(hide, 200);
  }

  function linkOf(target) {
    var a = target && target.closest ? target.closest("a") : null;
    if (!a || a.classList.contains("rulekb-tip-open")) return null;
    if (!a.closest("article") || a.closest(".rulekb-hit, .rulekb-suggest, .toctree-wrapper")) {
      return null;
    }
    return tipFor(a) ? a : null;
  }

  document.addEventListener("mouseover", function (ev) {
    var a = linkOf(ev.target);
    if (a && a !== current) show(a, false);
  });
  document.addEventListener("mouseout", function (ev) {
    var a = linkOf(ev.target);
    if (a && a === current && !(ev.relatedTarget && tipBox && tipBox.contains(ev.relatedTarget))) {
      scheduleHide();
    }
  });
  document.addEventListener("focusin", function (ev) {
    var a = linkOf(ev.target);
    if (a) show(a, false);
  });
  document.addEventListener("focusout", function (ev) {
    if (linkOf(ev.target)) scheduleHide();
  });
  // a touch: the first tap on a link shows its tip (and a link to open it), the second tap
  // follows the link; a tap elsewhere hides the tip
  var startX = 0, startY = 0;
  document.addEventListener("touchstart", function (ev) {
    touched = linkOf(ev.target);
    if (ev.touches && ev.touches.length) {
      startX = ev.touches[0].clientX;
      startY = ev.touches[0].clientY;
    }
  }, { passive: true });
  document.addEventListener("touchend", function (ev) {
    var a = linkOf(ev.target);
    var t = ev.changedTouches && ev.changedTouches[0];
    var moved = t ? Math.abs(t.clientX - startX) + Math.abs(t.clientY - startY) > 10 : false;
    if (a && a === touched && !moved && current !== a) {
      ev.preventDefault();   // no click: this tap only shows the tip
      show(a, true);
    }
  }, { passive: false });
  document.addEventListener("click", function (ev) {
    if (tipBox && !tipBox.hidden && !tipBox.contains(ev.target) && !linkOf(ev.target)) hide();
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape") hide();
  });

  // -- the map: zoom buttons, and the map fitted to its box's width at first ---------------
  function setupMap(tools) {
    var holder = tools.nextElementSibling;
    var svg = holder && holder.querySelector("svg");
    if (!svg) return;
    var natural = parseFloat(svg.getAttribute("width"));
    var ratio = parseFloat(svg.getAttribute("height")) / natural;
    var scale = 1;
    function apply() {
      var w = Math.max(1, natural * scale);
      svg.style.width = w + "px";
      svg.style.height = (w * ratio) + "px";
    }
    function fit() {
      scale = Math.min(1, (holder.clientWidth - 8) / natural);
      apply();
    }
    // a node under the pointer or in focus lights up its arrows
    function light(ev, on) {
      var a = ev.target && ev.target.closest ? ev.target.closest("a[data-node]") : null;
      if (!a) return;
      var key = a.getAttribute("data-node");
      var paths = svg.querySelectorAll("path[data-from]");
      for (var i = 0; i < paths.length; i++) {
        var p = paths[i];
        var mine = p.getAttribute("data-from") === key || p.getAttribute("data-to") === key;
        p.classList.toggle("rulekb-edge-on", on && mine);
      }
    }
    svg.addEventListener("mouseover", function (ev) { light(ev, true); });
    svg.addEventListener("mouseout", function (ev) { light(ev, false); });
    svg.addEventListener("focusin", function (ev) { light(ev, true); });
    svg.addEventListener("focusout", function (ev) { light(ev, false); });
    tools.hidden = false;
    tools.addEventListener("click", function (ev) {
      var how = ev.target && ev.target.getAttribute("data-zoom");
      if (how === "in") scale = Math.min(4, scale * 1.5);
      else if (how === "out") scale = Math.max(0.1, scale / 1.5);
      else if (how === "fit") { fit(); return; }
      else return;
      apply();
    });
    fit();
  }

  function start() {
    var maps = document.querySelectorAll(".rulekb-map-tools");
    for (var i = 0; i < maps.length; i++) setupMap(maps[i]);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
