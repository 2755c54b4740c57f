import { describeEveryTable } from "./a11y-tables";

describeEveryTable(3, 3);
