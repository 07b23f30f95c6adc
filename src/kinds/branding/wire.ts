// Organization branding on the wire (GET /v1/organizations/me, PUT /v1/organizations/branding).

export interface Branding {
  direction?: string;
  logo?: string;
  color?: string;
  fontColor?: string;
  contentBackground?: string;
  fontFamily?: string;
}
