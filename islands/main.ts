import { createElement, type ComponentType, type ReactElement } from "react";
import { createRoot } from "react-dom/client";

/** `queries`: the island uses react-query, whose provider (11 KB gzip) then loads with it, and only then. */
type IslandModule = { default: ComponentType<Record<string, unknown>>; queries?: boolean };

// Each island is its own chunk, loaded only when its marker is on the page.
const modules = import.meta.glob<IslandModule>("./**/*.island.tsx");

async function mount(element: HTMLElement): Promise<void> {
  const name = element.dataset.island;
  const load = name ? modules[`./${name}.island.tsx`] : undefined;
  if (!load) {
    console.error(`Unknown island: ${name}`);
    element.dataset.islandStatus = "error";
    return;
  }
  const props = JSON.parse(element.dataset.props || "{}") as Record<string, unknown>;
  const { default: Island, queries } = await load();
  let tree: ReactElement = createElement(Island, props);
  if (queries) {
    const { IslandProviders } = await import("./ui/providers");
    tree = createElement(IslandProviders, null, tree);
  }
  element.replaceChildren();
  createRoot(element).render(tree);
  // Browser tests wait for this attribute before they interact.
  requestAnimationFrame(() => {
    element.dataset.islandStatus = "hydrated";
  });
}

document.querySelectorAll<HTMLElement>("[data-island]").forEach((element) => {
  mount(element).catch((error) => {
    console.error(error);
    element.dataset.islandStatus = "error";
  });
});
