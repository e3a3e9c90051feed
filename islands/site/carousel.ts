/** Plan carousel below md: arrows (disabled at the ends) and dots move one index (customer-side §4). */
export function carousels(): void {
  for (const root of document.querySelectorAll<HTMLElement>("[data-carousel]")) {
    const track = root.querySelector<HTMLElement>("[data-carousel-track]");
    const prev = root.querySelector<HTMLButtonElement>("[data-carousel-prev]");
    const next = root.querySelector<HTMLButtonElement>("[data-carousel-next]");
    if (!track || !prev || !next) continue;
    const slides = [...track.querySelectorAll("[data-carousel-slide]")];
    const dots = [...root.querySelectorAll<HTMLButtonElement>("[data-carousel-dot]")];
    let index = 0;
    // The track is as tall as the card in view (the others are off to the side), not the tallest one.
    const fitHeight = () => {
      track.style.height = `${(slides[index] as HTMLElement).offsetHeight}px`;
    };
    const go = (to: number) => {
      index = Math.max(0, Math.min(slides.length - 1, to));
      // Read the focus first: Chromium drops it to <body> the moment a focused button is disabled.
      const focused = document.activeElement;
      track.style.setProperty("--i", String(index));
      prev.disabled = index === 0;
      next.disabled = index === slides.length - 1;
      // A button that just became disabled would drop the keyboard focus: hand it to the other arrow.
      if (focused === prev && prev.disabled) next.focus();
      if (focused === next && next.disabled) prev.focus();
      dots.forEach((dot, i) => {
        dot.setAttribute("aria-current", String(i === index));
      });
      fitHeight();
    };
    addEventListener("resize", fitHeight);
    prev.addEventListener("click", () => go(index - 1));
    next.addEventListener("click", () => go(index + 1));
    dots.forEach((dot, i) => {
      dot.addEventListener("click", () => go(i));
    });
    // Tabbing into a card that is off to the side brings it into view.
    track.addEventListener("focusin", (event) => {
      const slide = (event.target as Element).closest("[data-carousel-slide]");
      if (slide && slides.indexOf(slide) !== index) go(slides.indexOf(slide));
      track.parentElement!.scrollLeft = 0;
    });
    root.setAttribute("data-carousel-ready", "");
    go(0);
  }
}
