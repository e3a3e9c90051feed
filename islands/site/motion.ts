// Demo animations of customer-side §4. With prefers-reduced-motion nothing moves: the server-rendered
// final state stays.

/** Score dials count from 0 to their value over data-duration ms once they come into view. */
export function dials(still: boolean): void {
  const start = (dial: HTMLElement) => {
    const target = Number(dial.dataset.value);
    const duration = Number(dial.dataset.duration) || 1500;
    const ease = dial.hasAttribute("data-ease");
    const ring = dial.querySelector("[data-dial-ring]")!;
    const number = dial.querySelector("[data-dial-number]")!;
    const length = Number(ring.getAttribute("stroke-dasharray"));
    const draw = (value: number) => {
      number.textContent = String(Math.round(value));
      ring.setAttribute("stroke-dashoffset", (length * (1 - value / 100)).toFixed(2));
    };
    const began = performance.now();
    const frame = () => {
      const t = Math.min(1, (performance.now() - began) / duration);
      draw(target * (ease ? 1 - (1 - t) ** 3 : t));
      if (t < 1) requestAnimationFrame(frame);
      else dial.setAttribute("data-dial-done", String(Math.round(performance.now() - began)));
    };
    draw(0);
    requestAnimationFrame(frame);
  };
  const all = document.querySelectorAll<HTMLElement>("[data-dial]");
  if (still) {
    for (const dial of all) dial.setAttribute("data-dial-done", "0");
    return;
  }
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      observer.unobserve(entry.target);
      start(entry.target as HTMLElement);
    }
  });
  for (const dial of all) observer.observe(dial);
}

const every = (el: HTMLElement, tick: () => void) => setInterval(tick, Number(el.dataset.interval) || 1500);

/** The booking demo cycles its five steps; the quote demo flips each 'Get Quote' to 'Sent!', then resets. */
export function demos(still: boolean): void {
  if (still) return;
  for (const list of document.querySelectorAll<HTMLElement>("[data-demo-cycle]")) {
    const steps = [...list.querySelectorAll("[data-demo-step]")];
    let active = 0;
    every(list, () => {
      steps[active]!.removeAttribute("data-active");
      active = (active + 1) % steps.length;
      steps[active]!.setAttribute("data-active", "");
    });
  }
  for (const list of document.querySelectorAll<HTMLElement>("[data-demo-quotes]")) {
    const chips = [...list.querySelectorAll("[data-demo-quote]")];
    // The page's own words, in its language (views/pages/home.ejs).
    const { ask = "", sentText = "" } = list.dataset;
    let sent = 0;
    every(list, () => {
      if (sent === chips.length) {
        sent = 0;
        for (const chip of chips) {
          chip.textContent = ask;
          chip.removeAttribute("data-sent");
        }
        return;
      }
      chips[sent]!.textContent = sentText;
      chips[sent++]!.setAttribute("data-sent", "");
    });
  }
}
