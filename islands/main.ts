import { createElement, type ComponentType, type ReactNode, useEffect } from "react";
import { createRoot } from "react-dom/client";
import Toaster from "./ui/Toaster.island";

type IslandModule = { default: ComponentType<Record<string, unknown>> };

/**
 * Marks the island hydrated once React has committed it and run its effects: a parent's effects run after its
 * children's, so whatever an island sets up in an effect (document listeners, say) is in place by then. Browser
 * tests wait for this attribute before they interact.
 */
function Hydrated({ element, children }: { element: HTMLElement; children?: ReactNode }) {
  useEffect(() => {
    element.dataset.islandStatus = "hydrated";
  }, [element]);
  return children;
}

// Each island is its own chunk, loaded only when its marker is on the page; the toaster, which every island page
// has (views/layouts/main.ejs), comes with this loader: two fewer requests and chunks (the island budget).
const modules: Record<string, () => Promise<IslandModule>> = {
  ...import.meta.glob<IslandModule>(["./**/*.island.tsx", "!./ui/Toaster.island.tsx"]),
  "./ui/Toaster.island.tsx": async () => ({ default: Toaster as IslandModule["default"] }),
};

async function mount(element: HTMLElement): Promise<void> {
  const name = element.dataset.island;
  const load = name ? modules[`./${name}.island.tsx`] : undefined;
  if (!load) {
    console.error(`Unknown island: ${name}`);
    element.dataset.islandStatus = "error";
    return;
  }
  const props = JSON.parse(element.dataset.props || "{}") as Record<string, unknown>;
  const { default: Island } = await load();
  element.replaceChildren();
  createRoot(element).render(createElement(Hydrated, { element }, createElement(Island, props)));
}

document.querySelectorAll<HTMLElement>("[data-island]").forEach((element) => {
  mount(element).catch((error) => {
    console.error(error);
    element.dataset.islandStatus = "error";
  });
});
