import { z } from "zod";
import { apiCalls, dateTimeString, idNumber, idParamsDoc } from "../../http/openapi.kit.js";
import { type Property, customerCreateSchema, propertyEditSchema, staffListQuerySchema } from "./customers.schemas.js";

// OpenAPI entries of customers.routes.ts; see docs/api.md.

const text = z.string().nullable();
export const propertyResponse: z.ZodType<Property> = z
  .object({
    id: idNumber,
    customerId: idNumber,
    address: z.string(),
    city: z.string(),
    province: text,
    state: text,
    postalCode: z.string(),
    propertyType: text,
    squareFootage: z.number().int().nullable(),
    yearBuilt: z.number().int().nullable(),
    bedrooms: text,
    bathrooms: text,
    stories: text,
    hvacUnits: text,
    electricalPanels: text,
    plumbingSystems: text,
    roofType: text,
    heatingType: text,
    coolingType: text,
    waterHeaterType: text,
    foundationType: text,
    garageType: text,
    basementStatus: text,
    ownershipType: text,
    occupation: text,
    householdIncome: text,
    householdSize: text,
    financingType: text,
    notes: text,
    clientName: z.string(),
    clientEmail: z.string(),
    clientPhone: text,
    subscriptionPlan: z
      .string()
      .meta({ description: "free-score, basic, standard or premium; anything else displays as Unknown" }),
    createdAt: dateTimeString,
  })
  .meta({ id: "Property" });

export const customersCalls = apiCalls([
  {
    method: "post",
    path: "/api/customers",
    summary: "Property intake: create the customer and property of a paid checkout",
    description:
      "Only a paid checkout may create a customer, with the e-mail it was paid with. A retry with the same session and e-mail " +
      "answers 200 with the first customer; another e-mail is a 409. Sets the customer session cookie.",
    tags: ["Customers"],
    access: "public",
    body: customerCreateSchema,
    responses: {
      201: { description: "Created", schema: z.object({ id: idNumber, propertyId: idNumber }) },
      200: {
        description: "Already created by this checkout (a retry)",
        schema: z.object({ id: idNumber, propertyId: idNumber }),
      },
    },
    errors: [409, 502],
  },
  {
    method: "get",
    path: "/api/properties",
    summary: "Properties, newest first: staff see all, a page at a time; a customer session only its own",
    description:
      "Staff: limit/offset/q (address, client name or e-mail) and X-Total-Count. A customer session gets all of its own properties; the query is ignored.",
    tags: ["Properties"],
    access: "session",
    query: staffListQuerySchema,
    list: "staff",
    csv: true,
    responses: { 200: z.array(propertyResponse) },
  },
  {
    method: "get",
    path: "/api/properties/{id}",
    summary: "One property (staff: any; a customer session: its own)",
    tags: ["Properties"],
    access: "session",
    params: idParamsDoc,
    responses: { 200: propertyResponse },
    errors: [404],
  },
  {
    method: "patch",
    path: "/api/properties/{id}",
    summary: "Edit a property and its customer (staff, the details dialog)",
    description:
      "Every field is optional and checked with the intake's rules: province/postalCode or the spec's state/zipCode " +
      "(any case, with or without the space; stored as 'ON' and 'K1S 2B4'), square footage and year built as whole numbers, " +
      "the same choices for the selects. An empty optional field (bedrooms, notes…) clears it. name, email and phone change the " +
      "customer and are copied onto every property of theirs, in the same transaction. A 400 names each invalid field and writes nothing.",
    tags: ["Properties"],
    access: "staff",
    params: idParamsDoc,
    body: propertyEditSchema,
    responses: { 200: propertyResponse },
    errors: [404],
  },
]);
