// check.js: put first in a copy of a report by tests/report/suite.sh and
// run by headless Chromium; writes its verdict into a pre element with
// id "verdict", which --dump-dom reads back: "OK height=N" or one line
// per problem.
(function () {
    var errors = [];
    window.onerror = function (msg, src, line) {
        errors.push("javascript error: " + msg + " at line " + line);
    };
    function name(e) {
        var s = e.tagName.toLowerCase();
        if (e.id) s += "#" + e.id;
        var t = (e.textContent || "").trim().slice(0, 40);
        return t ? s + " '" + t + "'" : s;
    }
    function check() {
        var out = errors.slice();
        var doc = document.documentElement, width = doc.clientWidth;
        var body = document.body;
        // blank: no text, or nothing with a size
        if (!body || body.innerText.trim().length < 20 ||
            body.getBoundingClientRect().height < 50)
            out.push("blank page");
        var all = body ? body.querySelectorAll("*") : [];
        for (var i = 0; i < all.length; i++) {
            var e = all[i];
            if (e.id === "verdict" || e.closest("svg") && e.tagName !== "svg")
                continue;
            var r = e.getBoundingClientRect();
            if (r.width === 0 && r.height === 0)
                continue;
            if (r.left < -1 || r.right > width + 1)
                out.push("outside the page: " + name(e) + " spans " +
                         Math.round(r.left) + ".." + Math.round(r.right) +
                         " of " + width);
            // a text box whose text is wider than the box
            var disp = getComputedStyle(e).display;
            if (disp !== "inline" && e.clientWidth > 0 &&
                e.scrollWidth > e.clientWidth + 1 &&
                getComputedStyle(e).overflowX === "visible")
                out.push("text overflows its box: " + name(e) + " " +
                         e.scrollWidth + " > " + e.clientWidth);
        }
        // SVG text inside its drawing
        var svgs = document.querySelectorAll("svg");
        for (var s = 0; s < svgs.length; s++) {
            var box = svgs[s].getBoundingClientRect();
            var texts = svgs[s].querySelectorAll("text");
            for (var k = 0; k < texts.length; k++) {
                var t = texts[k].getBoundingClientRect();
                if (t.width === 0)
                    continue;
                if (t.left < box.left - 1 || t.right > box.right + 1 ||
                    t.top < box.top - 1 || t.bottom > box.bottom + 1)
                    out.push("svg text outside its drawing: " +
                             name(texts[k]) + " in svg " + s);
            }
        }
        var pre = document.createElement("pre");
        pre.id = "verdict";
        pre.textContent = out.length ? out.slice(0, 40).join("\n")
                                     : "OK height=" + doc.scrollHeight;
        body.appendChild(pre);
    }
    if (document.readyState === "loading")
        document.addEventListener("DOMContentLoaded", check);
    else
        check();
})();
