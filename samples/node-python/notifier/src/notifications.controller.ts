import { Controller, Get, Param } from "@nestjs/common";
import { InboxService } from "./inbox.service";

@Controller("notifications")
export class NotificationsController {
  constructor(private readonly inbox: InboxService) {}

  @Get(":user")
  list(@Param("user") user: string): string[] {
    return this.inbox.messagesFor(user);
  }
}
