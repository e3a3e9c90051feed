import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { apiRequest } from "./api";
import { LOGOUT_EVENT } from "./session";

// Query defaults from customer-side §7: no retries, no refetch on focus, never stale by itself.
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: false,
      refetchOnWindowFocus: false,
      refetchInterval: false,
      staleTime: Number.POSITIVE_INFINITY,
      queryFn: ({ queryKey }) => apiRequest("GET", String(queryKey[0])),
    },
    mutations: { retry: false },
  },
});

// Logout clears cached data (staff-side §4): the query cache too.
if (typeof window !== "undefined") window.addEventListener(LOGOUT_EVENT, () => queryClient.clear());

export function IslandProviders({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
