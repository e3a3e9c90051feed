import { useState } from "react";
import type { UpcomingProperty } from "../../src/modules/inspections/form.routes";
import { ApiError, apiRequest, handleUnauthorized } from "../ui/api";
import { toast } from "../ui/toast";
import { PropertyPicker, type PropertyRow } from "./PropertyPicker";

/** Today on this device, YYYY-MM-DD. */
const today = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
};

/** Pick a property and press 'Start Inspection' (staff-side §2, §5, §8); answers the new inspection's id. */
export default function StartInspection({
  onStarted,
  upcoming,
}: {
  onStarted: (id: number) => void;
  upcoming?: UpcomingProperty[];
}) {
  const [property, setProperty] = useState<PropertyRow | null>(null);
  const [starting, setStarting] = useState(false);

  const start = async () => {
    if (!property) {
      toast({ title: "Please select a property", variant: "destructive" });
      return;
    }
    setStarting(true);
    try {
      const created = await apiRequest<{ id: number }>("POST", "/api/inspections", {
        propertyId: property.id,
        status: "in_progress",
        inspectionDate: today(),
      });
      toast({ title: "Inspection Started" });
      // A reload (or a reopened tab) lands on this inspection.
      window.history.replaceState(null, "", `/admin/inspections/edit/${created.id}`);
      // The page is now this inspection's: its title says so, as the edit page's does.
      const heading = document.querySelector("[data-inspection-title]");
      if (heading) heading.textContent = `Inspection #${created.id}`;
      document.title = document.title.replace("New Property Inspection", `Inspection #${created.id}`);
      onStarted(created.id);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return handleUnauthorized();
      toast({
        title: "Failed to start inspection",
        description: error instanceof Error ? error.message : undefined,
        variant: "destructive",
      });
    } finally {
      setStarting(false);
    }
  };

  return (
    <div className="card mt-6 grid gap-4">
      <h2 className="font-serif text-xl font-bold text-green-900">Choose the property</h2>
      <PropertyPicker selected={property} onSelect={setProperty} upcoming={upcoming} />
      <div className="form-actions form-actions-plain">
        <a className="btn btn-outline" href="/admin/inspections">
          Cancel
        </a>
        <button type="button" className="btn btn-green" onClick={start} disabled={starting}>
          {starting ? "Starting…" : "Start Inspection"}
        </button>
      </div>
    </div>
  );
}
