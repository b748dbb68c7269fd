// interact.js: put last in a copy of a report by tests/report/suite.sh:
// works the page's own script as a reader would (the pointer on a mark
// with a <title>, a double click on its drawing, Escape) and writes what
// happened into a pre element with id "interact": "OK" or the problems.
(function () {
    function run() {
        var out = [], mark = null;
        var all = document.querySelectorAll("figure svg :not(svg) > title");
        if (all.length) mark = all[0].parentNode;
        if (!mark || mark.tagName === "svg") {
            out.push("no mark with a title");
        } else {
            var want = all[0].textContent;
            mark.dispatchEvent(new MouseEvent("mousemove",
                {bubbles: true, clientX: 20, clientY: 20}));
            var tip = document.querySelector("div.tip");
            if (!tip || tip.hidden || tip.textContent !== want)
                out.push("hover: no tip saying '" + want + "'");
            var svg = mark.closest("svg"), box = svg.getAttribute("viewBox");
            var r = svg.getBoundingClientRect();
            svg.dispatchEvent(new MouseEvent("dblclick", {bubbles: true,
                clientX: r.left + r.width / 2, clientY: r.top + r.height / 2}));
            var w0 = +box.split(" ")[2];
            var z = svg.getAttribute("viewBox");
            if (z === box || +z.split(" ")[2] !== w0 / 2)
                out.push("zoom: viewBox '" + z + "' after a double click");
            document.dispatchEvent(new KeyboardEvent("keydown",
                {key: "Escape", bubbles: true}));
            if (svg.getAttribute("viewBox") !== box)
                out.push("zoom: Escape left viewBox '" +
                         svg.getAttribute("viewBox") + "'");
        }
        var pre = document.createElement("pre");
        pre.id = "interact";
        pre.textContent = out.length ? out.join("\n") : "OK";
        document.body.appendChild(pre);
    }
    if (document.readyState === "complete") run();
    else window.addEventListener("load", run);
})();
